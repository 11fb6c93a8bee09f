//! Google's requirements per type, as data: for each rich result, the schema.org types it is
//! read from, its required and recommended properties with the kind of value each takes,
//! the page that documents them and the date they were checked against it. docs/RULES.md
//! prints this table (generated).

use super::values::{Kind, ATTENDANCE_MODE, EMPLOYMENT_TYPE, EVENT_STATUS, ITEM_AVAILABILITY, ITEM_CONDITION};

/// The date every requirement below was last checked against its source page.
pub const CHECKED: &str = "2026-11-28";

/// Whether a property must be there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// Missing or invalid: not eligible (an error).
    Required,
    /// Missing or invalid: eligible with less (a warning).
    Recommended,
}

/// One requirement: at the nodes `at` names (`""` for the item itself, `offers` for each of
/// its offers, only those of type `only` when set), one of the `|`-separated paths of `any`
/// has a value of `kind`.
#[derive(Debug, Clone, Copy)]
pub struct Requirement {
    /// Where: a dotted path of nested items from the item, `""` for the item.
    pub at: &'static str,
    /// Only nested items of this type (`""`: any).
    pub only: &'static str,
    /// Alternatives, separated by `|`: one of them must have a value.
    pub any: &'static str,
    /// Required or recommended.
    pub need: Need,
    /// What the value must be.
    pub kind: Kind,
}

const fn req(any: &'static str, kind: Kind) -> Requirement {
    Requirement { at: "", only: "", any, need: Need::Required, kind }
}
const fn rec(any: &'static str, kind: Kind) -> Requirement {
    Requirement { at: "", only: "", any, need: Need::Recommended, kind }
}
const fn req_at(at: &'static str, only: &'static str, any: &'static str, kind: Kind) -> Requirement {
    Requirement { at, only, any, need: Need::Required, kind }
}
const fn rec_at(at: &'static str, only: &'static str, any: &'static str, kind: Kind) -> Requirement {
    Requirement { at, only, any, need: Need::Recommended, kind }
}

/// Checks that do not fit a property path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Special {
    /// Every rating (`ratingValue`) lies within its `worstRating` and `bestRating` (1 and 5
    /// when not given).
    RatingBounds,
    /// `recipeYield` is required when `nutrition.calories` is given.
    YieldWithCalories,
    /// Every `ListItem` but the last has an `item`.
    BreadcrumbItems,
}

impl Special {
    /// How the check reads in docs/RULES.md.
    pub fn describe(self) -> &'static str {
        match self {
            Special::RatingBounds => "ratingValue within worstRating..bestRating (default 1..5)",
            Special::YieldWithCalories => "recipeYield required when nutrition.calories is given",
            Special::BreadcrumbItems => "ListItem.item required except on the last item",
        }
    }
}

/// A rich result and what it needs.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    /// The rich result's name in Google's search gallery.
    pub rich_result: &'static str,
    /// The schema.org types it is read from.
    pub types: &'static [&'static str],
    /// Checked only when the item has one of these `|`-separated properties, with a nested
    /// item of the type after `:` when one is named (`""`: always).
    pub applies_if: &'static str,
    /// Property requirements.
    pub reqs: &'static [Requirement],
    /// Other checks.
    pub special: &'static [Special],
    /// The page of Google's documentation the requirements come from.
    pub source: &'static str,
}

/// A type whose rich result Google retired: valid markup, no rich result.
#[derive(Debug, Clone, Copy)]
pub struct Retired {
    /// The rich result that was retired.
    pub rich_result: &'static str,
    /// The schema.org types it was read from.
    pub types: &'static [&'static str],
    /// When it stopped (ISO 8601 date).
    pub since: &'static str,
    /// Where Google said so.
    pub source: &'static str,
}

const AVAILABILITY: Kind = Kind::Enum("ItemAvailability", ITEM_AVAILABILITY);
const CONDITION: Kind = Kind::Enum("OfferItemCondition", ITEM_CONDITION);

const ARTICLE_TYPES: &[&str] = &[
    "Article",
    "NewsArticle",
    "BlogPosting",
    "AnalysisNewsArticle",
    "OpinionNewsArticle",
    "ReportageNewsArticle",
    "ReviewNewsArticle",
    "LiveBlogPosting",
    "TechArticle",
    "ScholarlyArticle",
    "Report",
];

const LOCAL_BUSINESS_TYPES: &[&str] = &[
    "LocalBusiness",
    "AnimalShelter",
    "AutomotiveBusiness",
    "AutoRepair",
    "AutoDealer",
    "ChildCare",
    "DryCleaningOrLaundry",
    "EmergencyService",
    "EmploymentAgency",
    "EntertainmentBusiness",
    "FinancialService",
    "BankOrCreditUnion",
    "FoodEstablishment",
    "Bakery",
    "BarOrPub",
    "Brewery",
    "CafeOrCoffeeShop",
    "FastFoodRestaurant",
    "IceCreamShop",
    "Restaurant",
    "Winery",
    "GovernmentOffice",
    "HealthAndBeautySalon",
    "BeautySalon",
    "DaySpa",
    "HairSalon",
    "HomeAndConstructionBusiness",
    "Electrician",
    "GeneralContractor",
    "HVACBusiness",
    "Plumber",
    "RoofingContractor",
    "LegalService",
    "Attorney",
    "Notary",
    "LodgingBusiness",
    "Hotel",
    "BedAndBreakfast",
    "Hostel",
    "Motel",
    "MedicalBusiness",
    "Dentist",
    "Pharmacy",
    "Physician",
    "ProfessionalService",
    "RealEstateAgent",
    "SportsActivityLocation",
    "ExerciseGym",
    "Store",
    "BookStore",
    "ClothingStore",
    "ComputerStore",
    "ElectronicsStore",
    "FurnitureStore",
    "GardenStore",
    "GroceryStore",
    "HardwareStore",
    "JewelryStore",
    "ShoeStore",
    "SportingGoodsStore",
    "ToyStore",
    "TravelAgency",
];

const EVENT_TYPES: &[&str] = &[
    "Event",
    "BusinessEvent",
    "ChildrensEvent",
    "ComedyEvent",
    "DanceEvent",
    "EducationEvent",
    "ExhibitionEvent",
    "Festival",
    "FoodEvent",
    "LiteraryEvent",
    "MusicEvent",
    "SaleEvent",
    "ScreeningEvent",
    "SocialEvent",
    "SportsEvent",
    "TheaterEvent",
    "VisualArtsEvent",
];

/// Every rich result checked, with its requirements.
pub static SPECS: &[Spec] = &[
    Spec {
        rich_result: "Article",
        types: ARTICLE_TYPES,
        applies_if: "",
        // Google marks no Article property required: every one is recommended.
        reqs: &[
            rec("author", Kind::Any),
            rec_at("author", "", "name", Kind::Text),
            rec_at("author", "", "url|sameAs", Kind::Url),
            rec("datePublished", Kind::Date),
            rec("dateModified", Kind::Date),
            rec("headline", Kind::Text),
            rec("image", Kind::Image),
        ],
        special: &[],
        source: "https://developers.google.com/search/docs/appearance/structured-data/article",
    },
    Spec {
        rich_result: "Product snippet",
        types: &["Product", "ProductGroup"],
        applies_if: "",
        reqs: &[
            req("name", Kind::Text),
            req("review|aggregateRating|offers", Kind::Item),
            req_at("offers", "Offer", "price|priceSpecification.price", Kind::Price),
            rec_at("offers", "Offer", "priceCurrency|priceSpecification.priceCurrency", Kind::Currency),
            rec_at("offers", "Offer", "availability", AVAILABILITY),
            rec_at("offers", "Offer", "priceValidUntil", Kind::Date),
            req_at("offers", "AggregateOffer", "lowPrice", Kind::Price),
            req_at("offers", "AggregateOffer", "priceCurrency", Kind::Currency),
            rec_at("offers", "AggregateOffer", "highPrice", Kind::Price),
            rec_at("offers", "AggregateOffer", "offerCount", Kind::Number),
            req_at("aggregateRating", "", "ratingValue", Kind::Number),
            req_at("aggregateRating", "", "ratingCount|reviewCount", Kind::Number),
            req_at("review", "", "author", Kind::Any),
            req_at("review", "", "reviewRating", Kind::Item),
            req_at("review.reviewRating", "", "ratingValue", Kind::Number),
        ],
        special: &[Special::RatingBounds],
        source: "https://developers.google.com/search/docs/appearance/structured-data/product-snippet",
    },
    Spec {
        rich_result: "Merchant listing",
        types: &["Product"],
        // Merchant listings are read from a Product with an Offer (an AggregateOffer is for
        // product snippets only).
        applies_if: "offers:Offer",
        reqs: &[
            req("name", Kind::Text),
            req("image", Kind::Image),
            req("offers", Kind::Item),
            req_at("offers", "Offer", "price|priceSpecification.price", Kind::Price),
            req_at("offers", "Offer", "priceCurrency|priceSpecification.priceCurrency", Kind::Currency),
            rec_at("offers", "Offer", "availability", AVAILABILITY),
            rec_at("offers", "Offer", "itemCondition", CONDITION),
            rec_at("offers", "Offer", "shippingDetails", Kind::Item),
            rec_at("offers", "Offer", "hasMerchantReturnPolicy", Kind::Item),
            rec("description", Kind::Text),
            rec("brand", Kind::Text),
            rec("gtin|gtin8|gtin12|gtin13|gtin14|mpn|isbn", Kind::Text),
        ],
        special: &[],
        source: "https://developers.google.com/search/docs/appearance/structured-data/merchant-listing",
    },
    Spec {
        rich_result: "Review snippet",
        types: &["Review", "CriticReview"],
        applies_if: "",
        reqs: &[
            req("author", Kind::Any),
            rec_at("author", "", "name", Kind::Text),
            req("itemReviewed", Kind::Item),
            req_at("itemReviewed", "", "name", Kind::Text),
            req("reviewRating", Kind::Item),
            req_at("reviewRating", "", "ratingValue", Kind::Number),
            rec("datePublished", Kind::Date),
        ],
        special: &[Special::RatingBounds],
        source: "https://developers.google.com/search/docs/appearance/structured-data/review-snippet",
    },
    Spec {
        rich_result: "Review snippet (aggregate rating)",
        types: &["AggregateRating", "EmployerAggregateRating"],
        applies_if: "",
        reqs: &[
            req("itemReviewed", Kind::Item),
            req_at("itemReviewed", "", "name", Kind::Text),
            req("ratingValue", Kind::Number),
            req("ratingCount|reviewCount", Kind::Number),
            rec("bestRating", Kind::Number),
            rec("worstRating", Kind::Number),
        ],
        special: &[Special::RatingBounds],
        source: "https://developers.google.com/search/docs/appearance/structured-data/review-snippet",
    },
    Spec {
        rich_result: "Recipe",
        types: &["Recipe"],
        applies_if: "",
        reqs: &[
            req("name", Kind::Text),
            req("image", Kind::Image),
            rec("aggregateRating", Kind::Item),
            rec("author", Kind::Any),
            rec("cookTime", Kind::Duration),
            rec("prepTime", Kind::Duration),
            rec("totalTime", Kind::Duration),
            rec("datePublished", Kind::Date),
            rec("description", Kind::Text),
            rec("keywords", Kind::Text),
            rec("recipeCategory", Kind::Text),
            rec("recipeCuisine", Kind::Text),
            rec("recipeIngredient", Kind::Text),
            rec("recipeInstructions", Kind::Any),
            rec("recipeYield", Kind::Text),
            rec("nutrition", Kind::Item),
            rec("video", Kind::Item),
            req_at("aggregateRating", "", "ratingValue", Kind::Number),
            req_at("aggregateRating", "", "ratingCount|reviewCount", Kind::Number),
        ],
        special: &[Special::YieldWithCalories, Special::RatingBounds],
        source: "https://developers.google.com/search/docs/appearance/structured-data/recipe",
    },
    Spec {
        rich_result: "Breadcrumb",
        types: &["BreadcrumbList"],
        applies_if: "",
        reqs: &[
            req("itemListElement", Kind::Item),
            req_at("itemListElement", "", "position", Kind::Number),
            req_at("itemListElement", "", "name|item.name", Kind::Text),
        ],
        special: &[Special::BreadcrumbItems],
        source: "https://developers.google.com/search/docs/appearance/structured-data/breadcrumb",
    },
    Spec {
        rich_result: "Organization",
        types: &["Organization", "Corporation", "NGO", "OnlineStore", "OnlineBusiness", "EducationalOrganization"],
        applies_if: "",
        // Google marks no Organization property required.
        reqs: &[rec("name", Kind::Text), rec("url", Kind::Url), rec("logo", Kind::Image), rec("sameAs", Kind::Url)],
        special: &[],
        source: "https://developers.google.com/search/docs/appearance/structured-data/organization",
    },
    Spec {
        rich_result: "Local business",
        types: LOCAL_BUSINESS_TYPES,
        applies_if: "",
        reqs: &[
            req("name", Kind::Text),
            req("address", Kind::Any),
            rec_at("address", "PostalAddress", "streetAddress", Kind::Text),
            rec_at("address", "PostalAddress", "addressLocality", Kind::Text),
            rec_at("address", "PostalAddress", "postalCode", Kind::Text),
            rec_at("address", "PostalAddress", "addressCountry", Kind::Text),
            rec("geo", Kind::Item),
            rec_at("geo", "", "latitude", Kind::Number),
            rec_at("geo", "", "longitude", Kind::Number),
            rec("telephone", Kind::Text),
            rec("url", Kind::Url),
            rec("openingHoursSpecification|openingHours", Kind::Any),
            rec("priceRange", Kind::Text),
            rec("image", Kind::Image),
        ],
        special: &[Special::RatingBounds],
        source: "https://developers.google.com/search/docs/appearance/structured-data/local-business",
    },
    Spec {
        rich_result: "Event",
        types: EVENT_TYPES,
        applies_if: "",
        reqs: &[
            req("name", Kind::Text),
            req("startDate", Kind::Date),
            req("location", Kind::Item),
            req_at("location", "Place", "address", Kind::Any),
            req_at("location", "VirtualLocation", "url", Kind::Url),
            rec("description", Kind::Text),
            rec("endDate", Kind::Date),
            rec("eventStatus", Kind::Enum("EventStatusType", EVENT_STATUS)),
            rec("eventAttendanceMode", Kind::Enum("EventAttendanceModeEnumeration", ATTENDANCE_MODE)),
            rec("image", Kind::Image),
            rec("offers", Kind::Item),
            rec_at("offers", "", "price", Kind::Price),
            rec_at("offers", "", "priceCurrency", Kind::Currency),
            rec_at("offers", "", "availability", AVAILABILITY),
            rec_at("offers", "", "validFrom", Kind::Date),
            rec_at("offers", "", "url", Kind::Url),
            rec("organizer", Kind::Any),
            rec("performer", Kind::Any),
        ],
        special: &[],
        source: "https://developers.google.com/search/docs/appearance/structured-data/event",
    },
    Spec {
        rich_result: "Job posting",
        types: &["JobPosting"],
        applies_if: "",
        reqs: &[
            req("title", Kind::Text),
            req("description", Kind::Text),
            req("datePosted", Kind::Date),
            req("hiringOrganization", Kind::Any),
            req("jobLocation|applicantLocationRequirements", Kind::Item),
            req_at("jobLocation", "", "address", Kind::Any),
            rec("validThrough", Kind::Date),
            rec("employmentType", Kind::Enum("employmentType", EMPLOYMENT_TYPE)),
            rec("baseSalary", Kind::Item),
            rec("identifier", Kind::Any),
            rec("directApply", Kind::Any),
        ],
        special: &[],
        source: "https://developers.google.com/search/docs/appearance/structured-data/job-posting",
    },
    Spec {
        rich_result: "Video",
        types: &["VideoObject"],
        applies_if: "",
        reqs: &[
            req("name", Kind::Text),
            req("thumbnailUrl", Kind::Image),
            req("uploadDate", Kind::Date),
            rec("description", Kind::Text),
            rec("contentUrl|embedUrl", Kind::Url),
            rec("duration", Kind::Duration),
            rec("expires", Kind::Date),
        ],
        special: &[],
        source: "https://developers.google.com/search/docs/appearance/structured-data/video",
    },
    Spec {
        rich_result: "Video key moments",
        types: &["VideoObject"],
        applies_if: "hasPart|potentialAction",
        reqs: &[
            req_at("hasPart", "Clip", "name", Kind::Text),
            req_at("hasPart", "Clip", "startOffset", Kind::Number),
            req_at("hasPart", "Clip", "url", Kind::Url),
            rec_at("hasPart", "Clip", "endOffset", Kind::Number),
            req_at("potentialAction", "SeekToAction", "target", Kind::Text),
            req_at("potentialAction", "SeekToAction", "startOffset-input", Kind::Text),
        ],
        special: &[],
        source: "https://developers.google.com/search/docs/appearance/structured-data/video",
    },
    Spec {
        rich_result: "Profile page",
        types: &["ProfilePage"],
        applies_if: "",
        reqs: &[
            req("mainEntity", Kind::Item),
            req_at("mainEntity", "", "name", Kind::Text),
            rec_at("mainEntity", "", "image", Kind::Image),
            rec_at("mainEntity", "", "sameAs", Kind::Url),
            rec("dateCreated", Kind::Date),
            rec("dateModified", Kind::Date),
        ],
        special: &[],
        source: "https://developers.google.com/search/docs/appearance/structured-data/profile-page",
    },
    Spec {
        rich_result: "Software app",
        types: &["SoftwareApplication", "MobileApplication", "WebApplication", "VideoGame"],
        applies_if: "",
        reqs: &[
            req("name", Kind::Text),
            req("offers", Kind::Item),
            req_at("offers", "", "price", Kind::Price),
            rec_at("offers", "", "priceCurrency", Kind::Currency),
            req("aggregateRating|review", Kind::Item),
            req_at("aggregateRating", "", "ratingValue", Kind::Number),
            req_at("aggregateRating", "", "ratingCount|reviewCount", Kind::Number),
            rec("applicationCategory", Kind::Text),
            rec("operatingSystem", Kind::Text),
        ],
        special: &[Special::RatingBounds],
        source: "https://developers.google.com/search/docs/appearance/structured-data/software-app",
    },
    Spec {
        rich_result: "Dataset",
        types: &["Dataset"],
        applies_if: "",
        reqs: &[
            req("name", Kind::Text),
            req("description", Kind::Text),
            rec("creator", Kind::Any),
            rec("license", Kind::Any),
            rec("url", Kind::Url),
            rec("keywords", Kind::Text),
            rec("temporalCoverage", Kind::Text),
            rec("spatialCoverage", Kind::Any),
            rec("distribution", Kind::Item),
            rec_at("distribution", "", "contentUrl", Kind::Url),
            rec_at("distribution", "", "encodingFormat", Kind::Text),
        ],
        special: &[],
        source: "https://developers.google.com/search/docs/appearance/structured-data/dataset",
    },
];

/// Rich results Google retired: the markup may be valid, it earns nothing in Search.
pub static RETIRED: &[Retired] = &[
    // The date is Google's: the caution note at the top of its FAQPage page (read 2026-11-28)
    // says FAQ rich results stopped appearing in Search as of May 7, 2026, the Rich Results
    // Test drops them in June 2026 and the Search Console API in August 2026.
    Retired {
        rich_result: "FAQ",
        types: &["FAQPage"],
        since: "2026-05-07",
        source: "https://developers.google.com/search/docs/appearance/structured-data/faqpage",
    },
    Retired {
        rich_result: "How-to",
        types: &["HowTo"],
        since: "2023-09-13",
        source: "https://developers.google.com/search/blog/2023/08/howto-faq-changes",
    },
    Retired {
        rich_result: "Book actions",
        types: &["Book"],
        since: "2025-06-12",
        source: "https://developers.google.com/search/blog/2025/06/simplifying-search-results",
    },
    Retired {
        rich_result: "Course info",
        types: &["Course"],
        since: "2025-06-12",
        source: "https://developers.google.com/search/blog/2025/06/simplifying-search-results",
    },
    Retired {
        rich_result: "Fact check",
        types: &["ClaimReview"],
        since: "2025-06-12",
        source: "https://developers.google.com/search/blog/2025/06/simplifying-search-results",
    },
    Retired {
        rich_result: "Estimated salary",
        types: &["Occupation", "OccupationAggregationByEmployer"],
        since: "2025-06-12",
        source: "https://developers.google.com/search/blog/2025/06/simplifying-search-results",
    },
    Retired {
        rich_result: "Learning video",
        types: &["LearningResource"],
        since: "2025-06-12",
        source: "https://developers.google.com/search/blog/2025/06/simplifying-search-results",
    },
    Retired {
        rich_result: "Special announcement",
        types: &["SpecialAnnouncement"],
        since: "2025-06-12",
        source: "https://developers.google.com/search/blog/2025/06/simplifying-search-results",
    },
    Retired {
        rich_result: "Vehicle listing",
        types: &["Car", "Vehicle", "Motorcycle"],
        since: "2025-06-12",
        source: "https://developers.google.com/search/blog/2025/06/simplifying-search-results",
    },
];

/// The table of what is checked per rich result, for docs/RULES.md ("Structured data
/// requirements", generated).
pub fn requirements_markdown() -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(out, "\n## Structured data requirements\n");
    let _ = writeln!(
        out,
        "What `structured-data-required-properties` (errors: the item is not eligible) and \
         `structured-data-recommended-properties` (warnings: eligible, with less) check, per rich result, \
         on every item read from JSON-LD, microdata and RDFa Lite. Each requirement was checked against \
         its source page on {CHECKED}. A path such as `offers.price` is checked on each offer; `a \\| b` \
         means one of them; `(Offer)` limits a path to nested items of that type.\n"
    );
    let _ = writeln!(out, "| rich result | types | required | recommended | other checks | source |");
    let _ = writeln!(out, "|---|---|---|---|---|---|");
    let list = |need: Need, spec: &Spec| {
        let items: Vec<String> = spec
            .reqs
            .iter()
            .filter(|r| r.need == need)
            .map(|r| {
                let at = if r.at.is_empty() { String::new() } else { format!("{}.", r.at) };
                let only = if r.only.is_empty() { String::new() } else { format!(" ({})", r.only) };
                let any = r.any.split('|').map(|a| format!("{at}{a}")).collect::<Vec<_>>().join(" \\| ");
                format!("`{any}`{only}: {}", r.kind.describe())
            })
            .collect();
        if items.is_empty() {
            "none".to_string()
        } else {
            items.join("; ")
        }
    };
    for spec in SPECS {
        let mut types = spec.types.iter().take(6).map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", ");
        if spec.types.len() > 6 {
            let _ = write!(types, " and {} sub-types", spec.types.len() - 6);
        }
        if !spec.applies_if.is_empty() {
            let _ = write!(types, " with `{}`", spec.applies_if.replace('|', "` or `").replace(':', "` of type `"));
        }
        let special = spec.special.iter().map(|s| s.describe()).collect::<Vec<_>>().join("; ");
        let _ = writeln!(
            out,
            "| {} | {types} | {} | {} | {} | <{}> |",
            spec.rich_result,
            list(Need::Required, spec),
            list(Need::Recommended, spec),
            if special.is_empty() { "none" } else { &special },
            spec.source
        );
    }
    let _ = writeln!(
        out,
        "\nRetired rich results: the markup can be valid, it earns nothing in Search \
         (`structured-data-retired-rich-result`).\n"
    );
    let _ = writeln!(out, "| rich result | types | retired on | source |\n|---|---|---|---|");
    for r in RETIRED {
        let types = r.types.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", ");
        let _ = writeln!(out, "| {} | {types} | {} | <{}> |", r.rich_result, r.since, r.source);
    }
    out
}
