//! Thresholds and helpers shared by several rules.

use url::Url;

use crate::locate::Spot;
use crate::page::Page;

/// Titles shorter than this many characters fail `title-too-short`.
pub const TITLE_MIN_CHARS: usize = 30;
/// Titles longer than this many characters fail `title-too-long`.
pub const TITLE_MAX_CHARS: usize = 60;
/// Meta descriptions shorter than this fail `meta-description-too-short`.
pub const DESCRIPTION_MIN_CHARS: usize = 70;
/// Meta descriptions longer than this fail `meta-description-too-long`.
pub const DESCRIPTION_MAX_CHARS: usize = 160;
/// The font size, in CSS pixels, of a desktop search result's title (Arial).
pub const TITLE_FONT_PX: u32 = 20;
/// Titles wider than this many pixels at [`TITLE_FONT_PX`] fail `title-too-wide`: the
/// width of a desktop search result's title line.
pub const TITLE_MAX_PX: u32 = 600;
/// The font size, in CSS pixels, of a desktop search result's description (Arial).
pub const DESCRIPTION_FONT_PX: u32 = 14;
/// Meta descriptions wider than this many pixels at [`DESCRIPTION_FONT_PX`] fail
/// `meta-description-too-wide`: about what a desktop search result shows of a snippet.
pub const DESCRIPTION_MAX_PX: u32 = 990;
/// Pages with fewer visible words fail `thin-content`.
pub const THIN_CONTENT_WORDS: usize = 300;
/// Text/HTML ratio in percent under which `low-text-ratio` fails.
pub const MIN_TEXT_RATIO: f64 = 10.0;
/// Pages with more links fail `links-too-many`.
pub const MAX_LINKS: usize = 100;
/// HTML larger than this fails `html-too-large`.
pub const MAX_HTML_BYTES: usize = 1024 * 1024;
/// Time to first byte above which `slow-response` fails.
pub const SLOW_RESPONSE_MS: u64 = 800;
/// Documents with more elements fail `dom-too-large`.
pub const MAX_DOM_NODES: usize = 1500;
/// URLs longer than this fail `url-too-long`.
pub const URL_MAX_CHARS: usize = 100;
/// URLs with more query parameters fail `url-many-parameters`.
pub const URL_MAX_PARAMS: usize = 3;
/// Longest alt text, in characters (white space collapsed), before `image-alt-too-long`: Screaming
/// Frog's "Alt Text Over 100 Characters".
pub const ALT_MAX_CHARS: usize = 100;
/// The viewport every mobile rule suggests.
pub const VIEWPORT: &str = "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">";

/// Where a finding about a missing head element points: at the misplaced elements of that
/// kind when there are some (outside the head, or empty), else at `<head>`, where it goes.
pub fn misplaced_or_head(page: &Page, elements: &[Spot]) -> Vec<Spot> {
    if elements.is_empty() {
        vec![page.spots.head]
    } else {
        elements.to_vec()
    }
}

/// The elements structured data at these lines was read from (a `<script>` of JSON-LD, or an
/// element with microdata or RDFa attributes), each once, in the order of the lines given.
pub fn structured_spots(page: &Page, lines: impl IntoIterator<Item = u32>) -> Vec<Spot> {
    let mut out: Vec<Spot> = Vec::new();
    for line in lines {
        let spot = page
            .json_ld
            .iter()
            .find(|b| b.line == line)
            .map(|b| b.spot)
            .or_else(|| page.spots.markup.iter().find(|(l, _)| *l == line).map(|(_, s)| *s));
        if let Some(spot) = spot.filter(|s| !out.contains(s)) {
            out.push(spot);
        }
    }
    out
}

/// Whether a reference is an absolute http(s) URL.
pub fn is_absolute_url(s: &str) -> bool {
    Url::parse(s.trim()).is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.has_host())
}

/// Whether two URLs name the same page: fragment ignored, host case-insensitive, an empty path
/// equal to `/`.
pub fn same_url(a: &str, b: &str) -> bool {
    match (Url::parse(a.trim()), Url::parse(b.trim())) {
        (Ok(mut a), Ok(mut b)) => {
            a.set_fragment(None);
            b.set_fragment(None);
            a == b
        }
        _ => a.trim() == b.trim(),
    }
}

/// Cuts text to at most `max` characters at a word boundary, without a dangling separator.
pub fn trim_at_word(text: &str, max: usize) -> String {
    let text = text.trim();
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max).collect();
    let next_is_space = text.chars().nth(max).is_some_and(char::is_whitespace);
    let trimmed =
        if next_is_space { cut.as_str() } else { cut.rfind(char::is_whitespace).map_or(cut.as_str(), |i| &cut[..i]) };
    trimmed
        .trim_end_matches(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':' | '-' | '|' | '–' | '—'))
        .to_string()
}

/// Advance widths of the printable ASCII characters U+0020 to U+007E, in thousandths of the
/// font size: the `WX` values of Adobe's Helvetica font metrics (`Helvetica.afm` of the Core
/// 14 fonts, AFM version 002.000). Arial was drawn to the same advance widths as Helvetica,
/// so they are Arial's too, the font search results use.
const ARIAL_WIDTHS: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // space to /
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0 to ?
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // @ to O
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // P to _
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // ` to o
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // p to ~
];

/// The width the table gives a character outside printable ASCII, in thousandths of the font
/// size: a lowercase letter's (Latin letters with accents, Greek, Cyrillic, Arabic and the
/// rest are counted as an average letter, which is what they are within a few percent).
const OTHER_CHAR_WIDTH: u16 = 556;
/// The width of a character East Asian scripts set on a full em (CJK ideographs, kana,
/// Hangul, full-width forms: two columns for `unicode-width`).
const WIDE_CHAR_WIDTH: u16 = 1000;

/// The width of one character, in thousandths of the font size: printable ASCII from
/// [`ARIAL_WIDTHS`], a no-break space as a space, combining marks and other zero-width
/// characters nothing, East Asian wide characters [`WIDE_CHAR_WIDTH`], any other
/// [`OTHER_CHAR_WIDTH`].
fn char_width(c: char) -> u16 {
    match c {
        ' '..='~' => ARIAL_WIDTHS[c as usize - 0x20],
        '\u{a0}' => ARIAL_WIDTHS[0],
        _ => match unicode_width::UnicodeWidthChar::width(c) {
            Some(0) | None => 0,
            Some(2) => WIDE_CHAR_WIDTH,
            Some(_) => OTHER_CHAR_WIDTH,
        },
    }
}

/// The width of `text` in Arial at `font_px` pixels, rounded to the nearest pixel
/// (`title-too-wide`, `meta-description-too-wide`). Kerning is left out: Arial's kerning
/// pairs change a line's width by less than one percent.
pub fn text_width_px(text: &str, font_px: u32) -> u32 {
    let units: u64 = text.chars().map(|c| u64::from(char_width(c))).sum();
    u32::try_from((units * u64::from(font_px) + 500) / 1000).unwrap_or(u32::MAX)
}

/// `text` cut at a word so that it is at most `max_px` wide at `font_px` ([`trim_at_word`]
/// at the most characters that fit).
pub fn trim_to_width(text: &str, font_px: u32, max_px: u32) -> String {
    let text = text.trim();
    let mut units: u64 = 0;
    let mut fit = 0;
    for c in text.chars() {
        units += u64::from(char_width(c));
        if (units * u64::from(font_px) + 500) / 1000 > u64::from(max_px) {
            break;
        }
        fit += 1;
    }
    trim_at_word(text, fit)
}

/// A title suggestion built from what the page says about itself.
pub fn suggest_title(page: &Page) -> String {
    let base = [page.h1(), page.og.get("og:title").map_or("", String::as_str)]
        .into_iter()
        .find(|s| !s.trim().is_empty())
        .unwrap_or("Describe the page in 30-60 characters");
    trim_at_word(base, TITLE_MAX_CHARS)
}

/// A meta description drawn from the page's first substantial paragraph.
pub fn suggest_description(page: &Page) -> Option<String> {
    let p = page.first_paragraph.as_deref().filter(|p| p.chars().count() >= DESCRIPTION_MIN_CHARS)?;
    Some(
        trim_at_word(p, DESCRIPTION_MAX_CHARS - 3)
            + if p.chars().count() > DESCRIPTION_MAX_CHARS - 3 { "..." } else { "" },
    )
}

/// An h1 suggestion: the title without its site-name suffix.
pub fn suggest_h1(page: &Page) -> String {
    let title = page.title.split(['|', '–', '—']).next().unwrap_or("").trim();
    let title = title.rsplit_once(" - ").map_or(title, |(head, _)| head).trim();
    if title.is_empty() {
        "<h1>The topic of the page</h1>".to_string()
    } else {
        format!("<h1>{title}</h1>")
    }
}

/// An Open Graph tag filled from the page's own title, description or first image.
pub fn suggest_og(page: &Page, property: &str) -> Option<String> {
    let value = match property {
        "og:title" => Some(page.title.clone()).filter(|t| !t.is_empty()),
        "og:description" => page.meta_description().map(str::to_string).or_else(|| suggest_description(page)),
        "og:image" => page.images.iter().find(|i| !i.src.is_empty()).and_then(|i| page.resolve(&i.src)),
        _ => None,
    }?;
    Some(format!("<meta property=\"{property}\" content=\"{}\">", value.replace('"', "&quot;")))
}

/// Whether a viewport `content` has `key` with a value accepted by `pred`.
pub fn viewport_has(content: &str, key: &str, pred: impl Fn(&str) -> bool) -> bool {
    content
        .split([',', ';'])
        .filter_map(|kv| kv.split_once('='))
        .any(|(k, v)| k.trim().eq_ignore_ascii_case(key) && pred(v.trim().trim_matches(|c| c == '"' || c == '\'')))
}

/// Link texts that say nothing about the target, per language (the primary subtag of a BCP 47
/// tag, lower-case): the phrase lists of Lighthouse's `link-text` audit, so that both flag the
/// same links. Compared whole, after trimming and lower-casing.
pub const GENERIC_LINK_TEXT: &[(&str, &[&str])] = &[
    (
        "en",
        &[
            "click here",
            "click this",
            "go",
            "here",
            "information",
            "learn more",
            "more",
            "more info",
            "more information",
            "right here",
            "read more",
            "see more",
            "start",
            "this",
        ],
    ),
    ("ja", &["ここをクリック", "こちらをクリック", "リンク", "続きを読む", "続く", "全文表示"]),
    (
        "es",
        &[
            "click aquí",
            "click aqui",
            "clicka aquí",
            "clicka aqui",
            "pincha aquí",
            "pincha aqui",
            "aquí",
            "aqui",
            "más",
            "mas",
            "más información",
            "más informacion",
            "mas información",
            "mas informacion",
            "este",
            "enlace",
            "este enlace",
            "empezar",
        ],
    ),
    ("pt", &["clique aqui", "ir", "mais informação", "mais informações", "mais", "veja mais"]),
    ("ko", &["여기", "여기를 클릭", "클릭", "링크", "자세히", "자세히 보기", "계속", "이동", "전체 보기"]),
    ("sv", &["här", "klicka här", "läs mer", "mer", "mer info", "mer information"]),
    ("de", &["klicke hier", "hier klicken", "hier", "mehr", "siehe", "dies", "das", "weiterlesen"]),
    (
        "ta",
        &[
            "அடுத்த பக்கம்",
            "மறுபக்கம்",
            "முந்தைய பக்கம்",
            "முன்பக்கம்",
            "மேலும் அறிக",
            "மேலும் தகவலுக்கு",
            "மேலும் தரவுகளுக்கு",
            "தயவுசெய்து இங்கே அழுத்தவும்",
            "இங்கே கிளிக் செய்யவும்",
        ],
    ),
    (
        "fa",
        &[
            "اطلاعات بیشتر",
            "اطلاعات",
            "این",
            "اینجا بزنید",
            "اینجا کلیک کنید",
            "اینجا",
            "برو",
            "بیشتر بخوانید",
            "بیشتر بدانید",
            "بیشتر",
            "شروع",
        ],
    ),
];

/// Whether link text is a generic phrase of any language's list (see [`GENERIC_LINK_TEXT`]).
pub fn is_generic_link_text(text: &str) -> bool {
    is_generic_link_text_in(text, None)
}

/// Whether link text is a generic phrase for a link whose closest `lang` is `lang`: looked up
/// in that language's list when `lang` is given and not empty (a language without a list has
/// no generic phrases), else in every list.
pub fn is_generic_link_text_in(text: &str, lang: Option<&str>) -> bool {
    let t = text.trim().to_lowercase();
    if t.is_empty() {
        return false;
    }
    match lang.map(str::trim).filter(|l| !l.is_empty()) {
        Some(lang) => {
            let primary = lang.split('-').next().unwrap_or(lang).to_ascii_lowercase();
            GENERIC_LINK_TEXT.iter().filter(|(l, _)| *l == primary).any(|(_, phrases)| phrases.contains(&t.as_str()))
        }
        None => GENERIC_LINK_TEXT.iter().any(|(_, phrases)| phrases.contains(&t.as_str())),
    }
}

const ISO_639_1: &str = "aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da \
de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is \
it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb \
nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st \
su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu";

/// ISO 639-2 codes of languages that have no ISO 639-1 code (reserved and special codes left
/// out). BCP 47, which `hreflang` takes, writes such a language with its three-letter code.
const ISO_639_2_ONLY: &str =
    "ace ach ada ady afa afh ain akk ale alg alt ang anp apa arc arn arp art arw ast ath aus awa bad bai bal ban \
bas bat bej bem ber bho bik bin bla bnt bra btk bua bug byn cad cai car cau ceb cel chb chg chk chm chn cho \
chp chr chy cmc cnr cop cpe cpf cpp crh crp csb cus dak dar day del den dgr din doi dra dsb dua dum dyu efi \
egy eka elx enm ewo fan fat fil fiu fon frm fro frr frs fur gaa gay gba gem gez gil gmh goh gon gor got grb \
grc gsw gwi hai haw hil him hit hmn hsb hup iba ijo ilo inc ine inh ira iro jbo jpr jrb kaa kab kac kam kar \
kaw kbd kha khi kho kmb kok kos kpe krc krl kro kru kum kut lad lah lam lez lol loz lua lui lun luo lus mad \
mag mai mak man map mas mdf mdr men mga mic min mkh mnc mni mno moh mos mun mus mwl mwr myn myv nah nai nap \
nds new nia nic niu nog non nqo nso nub nwc nym nyn nyo nzi osa ota oto paa pag pal pam pap pau peo phi phn \
pon pra pro raj rap rar roa rom rup sad sah sai sal sam sas sat scn sco sel sem sga sgn shn sid sio sit sla \
sma smi smj smn sms snk sog son srn srr ssa suk sus sux syc syr tai tem ter tet tig tiv tkl tlh tli tmh tog \
tpi tsi tum tup tut tvl tyv udm uga umb vai vot wak wal war was wen xal yao yap ypk zap zbl zen zgh znd zun \
zza";

const ISO_3166_1: &str = "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR \
BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ \
FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE \
JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR \
MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU \
RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG \
UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW";

fn is_language(s: &str) -> bool {
    s.len() == 2 && ISO_639_1.split(' ').any(|c| c.eq_ignore_ascii_case(s))
}

/// An ISO 639-1 code, or the ISO 639-2 code of a language that has no ISO 639-1 code.
fn is_hreflang_language(s: &str) -> bool {
    is_language(s) || (s.len() == 3 && ISO_639_2_ONLY.split_ascii_whitespace().any(|c| c.eq_ignore_ascii_case(s)))
}

fn is_region(s: &str) -> bool {
    (s.len() == 2 && ISO_3166_1.split(' ').any(|c| c.eq_ignore_ascii_case(s)))
        || (s.len() == 3 && s.bytes().all(|b| b.is_ascii_digit()))
}

/// A well-formed BCP 47 tag: language (ISO 639-1, or 3 letters), optional script, region,
/// variants and extensions. Private-use and grandfathered tags beyond `i-`/`x-` are rejected.
pub fn is_valid_bcp47(tag: &str) -> bool {
    let parts: Vec<&str> = tag.split(['-', '_']).collect();
    if tag.contains('_') {
        return false;
    }
    let Some((lang, rest)) = parts.split_first() else { return false };
    let lang_ok = is_language(lang) || (lang.len() == 3 && lang.bytes().all(|b| b.is_ascii_alphabetic()));
    if !lang_ok {
        return false;
    }
    let mut i = 0;
    if rest.get(i).is_some_and(|s| s.len() == 4 && s.bytes().all(|b| b.is_ascii_alphabetic())) {
        i += 1;
    }
    if rest.get(i).is_some_and(|s| is_region(s)) {
        i += 1;
    }
    rest[i..].iter().all(|s| (1..=8).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric()))
        && rest
            .get(i)
            .is_none_or(|s| s.len() >= 4 || s.len() == 1 || s.bytes().next().is_some_and(|b| b.is_ascii_digit()))
}

/// A valid hreflang value: `x-default`, or a language with an optional script and an optional
/// ISO 3166-1 alpha-2 (or UN M.49 numeric) region. The language is its ISO 639-1 code, as
/// Google's documentation asks; a language that has none (Asturian, Filipino) is written with
/// its ISO 639-2 code, as BCP 47 does (`ast`, `fil`), while `eng` for `en` fails.
pub fn is_valid_hreflang(value: &str) -> bool {
    if value.eq_ignore_ascii_case("x-default") {
        return true;
    }
    let parts: Vec<&str> = value.split('-').collect();
    match parts.as_slice() {
        [lang] => is_hreflang_language(lang),
        [lang, region] if region.len() != 4 => is_hreflang_language(lang) && is_region(region),
        [lang, script] => is_hreflang_language(lang) && script.bytes().all(|b| b.is_ascii_alphabetic()),
        [lang, script, region] => {
            is_hreflang_language(lang)
                && script.len() == 4
                && script.bytes().all(|b| b.is_ascii_alphabetic())
                && is_region(region)
        }
        _ => false,
    }
}

/// The language, script and region subtags of a language tag, lower-case: `en-GB` gives
/// `("en", None, Some("gb"))`, `zh-Hant-TW` gives `("zh", Some("hant"), Some("tw"))`. The
/// script is a subtag of four letters right after the language, the region the next subtag of
/// two letters or three digits; `_` separates subtags too, as some pages write it. A language
/// with a deprecated or macrolanguage alias is given its usual code (`iw` → `he`, `in` → `id`,
/// `ji` → `yi`; `nb` and `nn` → `no`), so that tags naming one language compare equal.
pub fn language_script_region(tag: &str) -> (String, Option<String>, Option<String>) {
    let mut parts = tag.trim().split(['-', '_']).peekable();
    let language = parts.next().unwrap_or("").to_ascii_lowercase();
    let language = match language.as_str() {
        "iw" => "he".to_string(),
        "in" => "id".to_string(),
        "ji" => "yi".to_string(),
        "nb" | "nn" => "no".to_string(),
        _ => language,
    };
    let script =
        parts.next_if(|s| s.len() == 4 && s.bytes().all(|b| b.is_ascii_alphabetic())).map(str::to_ascii_lowercase);
    let region = parts
        .next_if(|s| {
            (s.len() == 2 && s.bytes().all(|b| b.is_ascii_alphabetic()))
                || (s.len() == 3 && s.bytes().all(|b| b.is_ascii_digit()))
        })
        .map(str::to_ascii_lowercase);
    (language, script, region)
}

/// Whether a URL is a plain `http:` one (the scheme in any case).
pub fn is_http_url(url: &str) -> bool {
    url.get(..7).is_some_and(|s| s.eq_ignore_ascii_case("http://")) && url.len() > 7
}

/// The URL with `https://` for a leading `http://` (any other URL as it is).
pub fn with_https(url: &str) -> String {
    if is_http_url(url) {
        format!("https://{}", &url[7..])
    } else {
        url.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn language_script_and_region_of_tags() {
        let parts = |t: &str| {
            let (l, s, r) = language_script_region(t);
            (l, s.unwrap_or_default(), r.unwrap_or_default())
        };
        let of = |l: &str, s: &str, r: &str| (l.to_string(), s.to_string(), r.to_string());
        assert_eq!(parts("en-GB"), of("en", "", "gb"));
        assert_eq!(parts("zh-Hant-TW"), of("zh", "hant", "tw"));
        assert_eq!(parts(" DE "), of("de", "", ""));
        assert_eq!(parts("es-419"), of("es", "", "419"));
        assert_eq!(parts("en_us"), of("en", "", "us"));
        assert_eq!(parts("sr-Latn"), of("sr", "latn", ""));
        assert_eq!(parts("de-1996"), of("de", "", ""), "a variant is no region");
        assert_eq!(parts("de-CH-1996"), of("de", "", "ch"));
        assert_eq!(parts("iw"), of("he", "", ""), "the deprecated code of Hebrew");
        assert_eq!(parts("nb-NO"), parts("no-NO"), "Norwegian Bokmål under the macrolanguage");
    }

    #[test]
    fn widths_follow_the_font_table_and_count_other_scripts_as_documented() {
        // Helvetica.afm: "W" is 944, "i" 222, space 278 thousandths of an em.
        assert_eq!(text_width_px("W", 1000), 944);
        assert_eq!(text_width_px("i i", 1000), 222 + 278 + 222);
        assert_eq!(text_width_px("Wi", 20), 23, "(944 + 222) * 20 / 1000 = 23.32");
        assert_eq!(text_width_px("\u{a0}", 1000), 278);
        assert_eq!(text_width_px("é", 1000), 556, "outside ASCII: an average letter");
        assert_eq!(text_width_px("e\u{301}", 1000), 556, "a combining accent adds nothing");
        assert_eq!(text_width_px("東京", 1000), 2000, "CJK: a full em each");
        assert_eq!(text_width_px("", 20), 0);
        // Sixty narrow letters fit where sixty wide ones do not: what the rules add to the
        // character count.
        assert!(text_width_px(&"i".repeat(60), TITLE_FONT_PX) < TITLE_MAX_PX);
        assert!(text_width_px(&"W".repeat(40), TITLE_FONT_PX) > TITLE_MAX_PX);
    }

    #[test]
    fn trim_to_width_cuts_at_a_word_within_the_width() {
        let title = "Winter Weather Wear: Waterproof Walking Wellies With Warm Wool Wadding";
        let cut = trim_to_width(title, TITLE_FONT_PX, TITLE_MAX_PX);
        assert!(text_width_px(&cut, TITLE_FONT_PX) <= TITLE_MAX_PX, "{cut}");
        assert!(title.starts_with(&cut) && title[cut.len()..].starts_with(' '), "cut at a word: {cut}");
        assert_eq!(trim_to_width("short", TITLE_FONT_PX, TITLE_MAX_PX), "short");
    }

    #[test]
    fn bcp47() {
        for ok in ["en", "en-GB", "de-AT", "zh-Hant-TW", "es-419", "sr-Latn", "gsw", "de-CH-1901", "en-us"] {
            assert!(is_valid_bcp47(ok), "{ok}");
        }
        for bad in ["english", "e", "en_GB", "", "en-", "12", "en-UK-", "xx-YY-zzzzzzzzz"] {
            assert!(!is_valid_bcp47(bad), "{bad}");
        }
    }

    #[test]
    fn hreflang_codes() {
        for ok in ["en", "en-GB", "x-default", "zh-Hant", "zh-Hant-TW", "es-419", "DE-at", "ast", "fil-PH"] {
            assert!(is_valid_hreflang(ok), "{ok}");
        }
        for bad in ["en-UK", "eng", "deu", "english", "en_GB", "xx", "xyz", "und", "en-GB-x", ""] {
            assert!(!is_valid_hreflang(bad), "{bad}");
        }
    }

    #[test]
    fn trimming_at_words() {
        assert_eq!(trim_at_word("one two three", 9), "one two");
        assert_eq!(trim_at_word("one two three", 7), "one two");
        assert_eq!(trim_at_word("short", 10), "short");
        assert_eq!(trim_at_word("Title | Brand name here", 8), "Title");
    }

    #[test]
    fn generic_link_text() {
        assert!(is_generic_link_text(" Click here "));
        assert!(is_generic_link_text("Weiterlesen"));
        assert!(is_generic_link_text("続きを読む"));
        // Whole phrases only: punctuation and other words make it another text.
        assert!(!is_generic_link_text("Read more »"));
        assert!(!is_generic_link_text("Learn more."));
        assert!(!is_generic_link_text("Compare pricing plans"));
        // The list of the link's language, when it has a language.
        assert!(is_generic_link_text_in("Mehr", Some("de-AT")));
        assert!(!is_generic_link_text_in("Start", Some("de")));
        assert!(is_generic_link_text_in("Start", Some("en-GB")));
        assert!(is_generic_link_text_in("Start", Some("")));
        // A language without a list has no generic phrases.
        assert!(!is_generic_link_text_in("here", Some("fr")));
    }
}
