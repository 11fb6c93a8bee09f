//! JSON request bodies read straight into their documented types (docs/API.md, "Conventions
//! of every endpoint"). Each request type of [`crate::wire`] derives `Deserialize` and
//! `JsonSchema` once, so the OpenAPI document describes exactly what is read.
//!
//! A derived deserialiser stops at the first member of the wrong type, in the order the
//! client wrote them, and words the fault in serde's terms. The answers of this API name the
//! first faulty field in the documented order, with `details.parameter`, and count `null` as
//! absent; so each member of a request type is a [`Field`], which records what was sent
//! (absent, a value of the documented type, a value of another type) without failing, and
//! the use case's check turns the fields into its typed input in the documented order
//! ([`Field::required`], [`Field::optional`]).

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, DeserializeOwned, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::json;

use vocab::Refusal;

/// One member of a request body as the client sent it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Field<T> {
    /// Not sent, or sent as `null`.
    #[default]
    Absent,
    /// A value of the documented type.
    Given(T),
    /// A value of another type.
    Wrong,
}

impl<T> Field<T> {
    /// The value of a member the request needs: `missing_parameter` when absent,
    /// `invalid_request` ("The field `name` must be `expected`.") when of another type.
    ///
    /// # Errors
    /// The member is absent or of another type.
    pub fn required(self, name: &str, expected: &str) -> Result<T, Refusal> {
        match self {
            Field::Given(value) => Ok(value),
            Field::Absent => Err(Refusal::missing_parameter(name)),
            Field::Wrong => Err(wrong_type(name, expected)),
        }
    }

    /// The value of an optional member: `None` when absent, `invalid_request` when of
    /// another type.
    ///
    /// # Errors
    /// The member is of another type.
    pub fn optional(self, name: &str, expected: &str) -> Result<Option<T>, Refusal> {
        match self {
            Field::Given(value) => Ok(Some(value)),
            Field::Absent => Ok(None),
            Field::Wrong => Err(wrong_type(name, expected)),
        }
    }
}

impl<T> Field<Option<T>> {
    /// [`Field::optional`] for a member documented as nullable (`Option<T>` in the schema):
    /// `null` arrives as [`Field::Absent`], so the inner `None` never occurs.
    ///
    /// # Errors
    /// The member is of another type.
    pub fn nullable(self, name: &str, expected: &str) -> Result<Option<T>, Refusal> {
        Ok(self.optional(name, expected)?.flatten())
    }
}

impl Field<String> {
    /// A required text member; blank text counts as absent (`missing_parameter`), as every
    /// route reads `url`.
    ///
    /// # Errors
    /// The member is absent, blank or not a string.
    pub fn required_text(self, name: &str) -> Result<String, Refusal> {
        let text = self.required(name, "a string")?;
        if text.trim().is_empty() {
            return Err(Refusal::missing_parameter(name));
        }
        Ok(text)
    }
}

/// `invalid_request` for a member of a JSON body of the wrong type, naming it in
/// `details.parameter`: "The field `name` must be `expected`." (docs/API.md, "Errors").
pub fn wrong_type(name: &str, expected: &str) -> Refusal {
    Refusal::invalid_request(format!("The field `{name}` must be {expected}."))
        .with_details(json!({ "parameter": name }))
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Field<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // serde buffers the value of an untagged enum and tries its variants in order: a
        // value that is not a `T` falls through to `IgnoredAny`, which takes anything, so a
        // wrong type is recorded rather than failing the whole body. A member left out is
        // read as `None` by the derived struct (as for an `Option` member), as is `null`.
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Sent<T> {
            Given(T),
            Wrong(IgnoredAny),
        }
        Ok(match Option::<Sent<T>>::deserialize(deserializer)? {
            None => Field::Absent,
            Some(Sent::Given(value)) => Field::Given(value),
            Some(Sent::Wrong(_)) => Field::Wrong,
        })
    }
}

/// A field is documented as the type it holds: the schema says what a valid request
/// sends, not how a faulty one is answered.
impl<T: JsonSchema> JsonSchema for Field<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }

    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        T::schema_id()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        T::json_schema(generator)
    }
}

/// The members of a JSON object that its request type does not name, in the order they were
/// sent (their values are skipped unread). A request type that refuses unknown members keeps
/// them in a `#[serde(flatten)]` member of this type, so that the use case refuses them after
/// the faulty known members, naming the first, rather than failing the whole body in serde's
/// words.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Unknown(pub Vec<String>);

impl Unknown {
    /// The first unknown member sent.
    pub fn first(&self) -> Option<&str> {
        self.0.first().map(String::as_str)
    }
}

impl<'de> Deserialize<'de> for Unknown {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Names;

        impl<'de> Visitor<'de> for Names {
            type Value = Unknown;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("the members of an object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Unknown, A::Error> {
                let mut names = Vec::new();
                while let Some((name, IgnoredAny)) = map.next_entry::<String, IgnoredAny>()? {
                    names.push(name);
                }
                Ok(Unknown(names))
            }
        }

        deserializer.deserialize_map(Names)
    }
}

/// A request type read from a JSON body.
pub trait JsonBody: DeserializeOwned {
    /// The members the refusal of a body that is not an object names: "The request body
    /// must be a JSON object with `MEMBERS`."
    const MEMBERS: &'static str;
}

/// Reads a JSON body as `T`: `invalid_request` when it is not JSON (the parser's own words),
/// not an object, or names a member twice.
///
/// # Errors
/// As said.
pub fn parse<T: JsonBody>(bytes: &[u8]) -> Result<T, Refusal> {
    // The whole text is checked as JSON first, strings included, so that a syntax fault is
    // named as such wherever it is (also in a member the type ignores, which the typed pass
    // skips without reading).
    check_json(bytes)?;
    match serde_json::from_slice::<Object<T>>(bytes) {
        Ok(Object(Some(value))) => Ok(value),
        Ok(Object(None)) => {
            Err(Refusal::invalid_request(format!("The request body must be a JSON object with {}.", T::MEMBERS)))
        }
        // Every member is a `Field`, so only a member named twice is left to fail here. This
        // API has always read such a body as JSON parsers commonly do, the last one winning:
        // the object is read into a map first (which keeps the last), then typed.
        Err(_) => serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(bytes)
            .and_then(|map| T::deserialize(serde_json::Value::Object(map)))
            .map_err(|e| Refusal::invalid_request(format!("The request body is not valid: {e}."))),
    }
}

/// Any JSON value, read as strictly as a `serde_json::Value` (every string decoded) and kept
/// nowhere.
struct Valid;

impl<'de> Deserialize<'de> for Valid {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValidVisitor)
    }
}

struct ValidVisitor;

impl<'de> Visitor<'de> for ValidVisitor {
    type Value = Valid;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Valid, E> {
        Ok(Valid)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Valid, E> {
        Ok(Valid)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Valid, E> {
        Ok(Valid)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Valid, E> {
        Ok(Valid)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Valid, E> {
        Ok(Valid)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Valid, E> {
        Ok(Valid)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Valid, A::Error> {
        while seq.next_element::<Valid>()?.is_some() {}
        Ok(Valid)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Valid, A::Error> {
        while map.next_entry::<Valid, Valid>()?.is_some() {}
        Ok(Valid)
    }
}

/// A body that is a JSON object read as `T`, or `None` for any other value.
struct Object<T>(Option<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ObjectVisitor(PhantomData))
    }
}

struct ObjectVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectVisitor<T> {
    type Value = Object<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Object<T>, A::Error> {
        T::deserialize(de::value::MapAccessDeserializer::new(map)).map(|value| Object(Some(value)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Object<T>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Object(None))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Object<T>, E> {
        Ok(Object(None))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Object<T>, E> {
        Ok(Object(None))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Object<T>, E> {
        Ok(Object(None))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Object<T>, E> {
        Ok(Object(None))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Object<T>, E> {
        Ok(Object(None))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Object<T>, E> {
        Ok(Object(None))
    }
}

/// Checks that a body the route does not read is JSON, as [`parse`] does.
///
/// # Errors
/// `invalid_request` naming the parser's fault.
pub fn check_json(bytes: &[u8]) -> Result<(), Refusal> {
    serde_json::from_slice::<Valid>(bytes)
        .map(|_| ())
        .map_err(|e| Refusal::invalid_request(format!("The request body is not valid JSON: {e}.")))
}
