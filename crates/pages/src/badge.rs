//! The score badge: an SVG image of a domain's score, the HTML page that embeds it for
//! iframes, and the validation of the `domain`, `color` and `size` parameters.
//!
//! Layout: a dark label panel on the left ("SEO score" over the domain) and a value panel in
//! the brand colour on the right ("87/100", or "not audited" on grey). Text widths are
//! estimated from a conservative per-character table so long domains are cut with an
//! ellipsis; each panel is also its own nested `<svg>` viewport, which clips, so even a font
//! wider than the estimate cannot spill over the badge's edge.

use std::fmt::Write as _;

use maud::{html, PreEscaped};

use crate::encode_component;

/// Brand colour when `color` is absent (docs/API.md, "GET /api/widget").
pub const DEFAULT_COLOR: Color = Color { r: 0x10, g: 0xb9, b: 0x81 };
/// Value panel colour of a domain that has no recent audit (grey whatever the `color`,
/// docs/API.md).
pub const NOT_AUDITED_COLOR: Color = Color { r: 0x9c, g: 0xa3, b: 0xaf };
/// The label panel: dark enough for white text at every size.
const LABEL_BG: &str = "#1f2937";
/// Near-black text for light brand colours (gray-900).
const DARK_TEXT: Color = Color { r: 0x11, g: 0x18, b: 0x27 };
const WHITE: Color = Color { r: 0xff, g: 0xff, b: 0xff };
/// System fonts only: a badge must not fetch anything.
const FONT_STACK: &str = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
/// Longest host name (RFC 1035); also the bound of the domain in the accessible name.
pub const MAX_DOMAIN_LEN: usize = 253;

/// An sRGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Color {
    /// Red channel.
    pub r: u8,
    /// Green channel.
    pub g: u8,
    /// Blue channel.
    pub b: u8,
}

impl Color {
    /// `#rrggbb`, lower case.
    pub fn css(&self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }

    /// WCAG 2 relative luminance, 0 (black) ..= 1 (white).
    pub fn relative_luminance(&self) -> f64 {
        fn channel(c: u8) -> f64 {
            let c = f64::from(c) / 255.0;
            if c <= 0.03928 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        }
        0.2126 * channel(self.r) + 0.7152 * channel(self.g) + 0.0722 * channel(self.b)
    }

    /// WCAG 2 contrast ratio between two colours, 1 ..= 21.
    pub fn contrast(&self, other: &Color) -> f64 {
        let (a, b) = (self.relative_luminance(), other.relative_luminance());
        let (hi, lo) = if a > b { (a, b) } else { (b, a) };
        (hi + 0.05) / (lo + 0.05)
    }

    /// White or near-black, whichever contrasts more with this background.
    pub fn text_color(&self) -> Color {
        if self.contrast(&WHITE) >= self.contrast(&DARK_TEXT) {
            WHITE
        } else {
            DARK_TEXT
        }
    }
}

/// Parses the `color` parameter: exactly six hex digits, no `#`.
pub fn parse_color(text: &str) -> Option<Color> {
    if text.len() != 6 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let channel = |i: usize| u8::from_str_radix(&text[i..i + 2], 16).ok();
    Some(Color { r: channel(0)?, g: channel(2)?, b: channel(4)? })
}

/// The three badge sizes (docs/API.md, "GET /api/widget").
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantArray,
)]
#[strum(serialize_all = "lowercase")]
pub enum BadgeSize {
    /// 140x40.
    Small,
    /// 200x56, the default.
    #[default]
    Medium,
    /// 300x80.
    Large,
}

impl BadgeSize {
    /// Every size, smallest first.
    pub const ALL: &'static [BadgeSize] = <BadgeSize as strum::VariantArray>::VARIANTS;

    /// Parses the `size` parameter (`small`, `medium`, `large`).
    pub fn parse(text: &str) -> Option<BadgeSize> {
        text.parse().ok()
    }

    /// The parameter value.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// Width in CSS pixels.
    pub fn width(self) -> u32 {
        match self {
            BadgeSize::Small => 140,
            BadgeSize::Medium => 200,
            BadgeSize::Large => 300,
        }
    }

    /// Height in CSS pixels.
    pub fn height(self) -> u32 {
        match self {
            BadgeSize::Small => 40,
            BadgeSize::Medium => 56,
            BadgeSize::Large => 80,
        }
    }
}

/// Validates and normalises the `domain` of the badge, script and report routes.
///
/// Returns the lower-cased host name, or `None` unless it is `localhost` or a dotted name of
/// ASCII letters, digits and hyphens (IDNs must come punycoded): at most 253 characters as
/// given, labels of 1 to 63 characters that neither start nor end with a hyphen, and a last
/// label that starts with a letter (as every top-level domain does, so IPv4 literals are
/// refused). ASCII whitespace around it and one trailing dot (the absolute form) are
/// dropped. [`DOMAIN_PATTERN`] says the same for the OpenAPI document; a test holds the two
/// to agreement.
pub fn validate_domain(text: &str) -> Option<String> {
    if text.len() > MAX_DOMAIN_LEN {
        return None;
    }
    // ASCII lower-casing only: Unicode lower-casing would turn the Kelvin sign into a `k`
    // and let a look-alike through.
    let lower = text.trim_matches(|c: char| c.is_ascii_whitespace()).to_ascii_lowercase();
    let name = lower.strip_suffix('.').unwrap_or(&lower);
    if name.is_empty() {
        return None;
    }
    if !name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.') {
        return None;
    }
    if name == "localhost" {
        return Some(name.to_string());
    }
    let labels: Vec<&str> = name.split('.').collect();
    if labels.len() < 2 {
        return None;
    }
    for label in &labels {
        if label.is_empty() || label.len() > 63 || label.starts_with('-') || label.ends_with('-') {
            return None;
        }
    }
    if !labels.last().is_some_and(|tld| tld.starts_with(|c: char| c.is_ascii_lowercase())) {
        return None;
    }
    Some(name.to_string())
}

/// The spellings a badge or report looks a domain up under: as given, then its other `www.`
/// form (`www.example.com` for `example.com` and back), when that is a domain too: a site
/// that redirects `example.com` to `www.example.com` is stored under the latter.
pub fn domain_forms(domain: &str) -> Vec<String> {
    let other = match domain.strip_prefix("www.") {
        Some(bare) => validate_domain(bare),
        None => validate_domain(&format!("www.{domain}")),
    };
    std::iter::once(domain.to_string()).chain(other).collect()
}

/// What [`validate_domain`] accepts, as the ECMA-262 regular expression of the OpenAPI
/// document's `domain` parameters (with `maxLength` [`MAX_DOMAIN_LEN`]).
pub const DOMAIN_PATTERN: &str = r"^[ \t\n\f\r]*(?:[Ll][Oo][Cc][Aa][Ll][Hh][Oo][Ss][Tt]|(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)\.?[ \t\n\f\r]*$";

/// The accessible name of a badge; also its `<title>` and the iframe page's title.
pub fn badge_label(domain: &str, score: Option<u32>) -> String {
    let domain = truncate_chars(domain, MAX_DOMAIN_LEN);
    match score {
        Some(s) => format!("SEO score for {domain}: {} out of 100", s.min(100)),
        None => format!("SEO score for {domain}: not audited"),
    }
}

/// Escapes text for XML, in element content and in quoted attribute values alike: the one
/// escaping function of the SVG badge, which is a text template (its coordinates are
/// computed numbers) rather than an HTML template. Everything that came from a request
/// passes through it before it meets markup. Control characters other than tab and newlines
/// are not allowed in XML 1.0 at all; they become U+FFFD.
pub fn escape_xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// Renders the badge as a standalone SVG document of exactly the size's width and height.
///
/// `score` is the percentage of the newest audit (clamped to 100), `None` when there is
/// none: the value panel is then grey and says "not audited". `domain` is escaped here,
/// whether or not it passed [`validate_domain`].
pub fn render_svg(domain: &str, score: Option<u32>, color: &Color, size: BadgeSize) -> String {
    let (w, h) = (f64::from(size.width()), f64::from(size.height()));
    let pad = h * 0.12;
    let radius = (h * 0.1).round();
    let value_w = (w * 0.38).round();
    let label_w = w - value_w;
    let label = escape_xml(&badge_label(domain, score));
    let panel = if score.is_some() { *color } else { NOT_AUDITED_COLOR };
    let ink = panel.text_color().css();

    let mut svg = String::with_capacity(2048);
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{label}"><title>{label}</title>"#,
        w = size.width(),
        h = size.height(),
    );
    // Two paths instead of a clip path: no ids, so several badges inlined in one page cannot
    // collide.
    let _ = write!(
        svg,
        r#"<path fill="{LABEL_BG}" d="M{r},0H{lw}V{h}H{r}A{r},{r} 0 0 1 0,{hr}V{r}A{r},{r} 0 0 1 {r},0Z"/>"#,
        r = num(radius),
        lw = num(label_w),
        h = num(h),
        hr = num(h - radius),
    );
    let _ = write!(
        svg,
        r#"<path fill="{fill}" d="M{lw},0H{wr}A{r},{r} 0 0 1 {w},{r}V{hr}A{r},{r} 0 0 1 {wr},{h}H{lw}Z"/>"#,
        fill = panel.css(),
        lw = num(label_w),
        wr = num(w - radius),
        r = num(radius),
        w = num(w),
        hr = num(h - radius),
        h = num(h),
    );
    let _ = write!(svg, r#"<g font-family="{FONT_STACK}" aria-hidden="true">"#);

    // Label panel: "SEO score" over the domain, which is cut to fit.
    let avail = label_w - 2.0 * pad;
    let caption_size = h * 0.22;
    let domain_size = h * 0.27;
    let shown = fit_text(domain, domain_size, avail);
    let _ = write!(
        svg,
        r##"<svg x="0" y="0" width="{lw}" height="{h}"><text x="{pad}" y="{y1}" font-size="{fs1}" fill="#ffffff" fill-opacity="0.85">SEO score</text><text x="{pad}" y="{y2}" font-size="{fs2}" font-weight="600" fill="#ffffff">{shown}</text></svg>"##,
        lw = num(label_w),
        h = num(h),
        pad = num(pad),
        y1 = num(h * 0.40),
        y2 = num(h * 0.76),
        fs1 = num(caption_size),
        fs2 = num(domain_size),
        shown = escape_xml(&shown),
    );

    // Value panel.
    let avail = value_w - 2.0 * pad;
    let cx = num(value_w / 2.0);
    let _ = write!(
        svg,
        r#"<svg x="{lw}" y="0" width="{vw}" height="{h}">"#,
        lw = num(label_w),
        vw = num(value_w),
        h = num(h)
    );
    match score {
        Some(s) => {
            // The number big, "/100" small; both shrink together if the panel is too narrow.
            let digits = s.min(100).to_string();
            let (mut big, mut small) = (h * 0.45, h * 0.22);
            let width = text_em(&digits) * big + text_em("/100") * small;
            if width > avail {
                big *= avail / width;
                small *= avail / width;
            }
            let _ = write!(
                svg,
                r#"<text x="{cx}" y="{y}" text-anchor="middle" font-weight="700" fill="{ink}"><tspan font-size="{big}">{digits}</tspan><tspan font-size="{small}" fill-opacity="0.85">/100</tspan></text>"#,
                y = num(h * 0.5 + big * 0.36),
                big = num(big),
                small = num(small),
            );
        }
        None => {
            let one_line = (h * 0.26).min(avail / text_em("not audited"));
            if one_line >= h * 0.2 {
                let _ = write!(
                    svg,
                    r#"<text x="{cx}" y="{y}" text-anchor="middle" font-size="{fs}" font-weight="600" fill="{ink}">not audited</text>"#,
                    y = num(h * 0.5 + one_line * 0.36),
                    fs = num(one_line),
                );
            } else {
                let fs = (h * 0.24).min(avail / text_em("audited"));
                let _ = write!(
                    svg,
                    r#"<text text-anchor="middle" font-size="{fs}" font-weight="600" fill="{ink}"><tspan x="{cx}" y="{y1}">not</tspan><tspan x="{cx}" y="{y2}">audited</tspan></text>"#,
                    fs = num(fs),
                    y1 = num(h * 0.5 - fs * 0.2),
                    y2 = num(h * 0.5 + fs * 0.92),
                );
            }
        }
    }
    svg.push_str("</svg></g></svg>");
    svg
}

/// A complete HTML page for `format=iframe`: the same SVG inline, linked to the domain's
/// report (new tab), on a transparent background with no margin and no external assets.
pub fn render_iframe_page(base_url: &str, domain: &str, score: Option<u32>, color: &Color, size: BadgeSize) -> String {
    let report = format!("{}/report/{}", base_url.trim_end_matches('/'), encode_component(domain));
    let style = format!(
        "html,body{{margin:0;padding:0;background:transparent;overflow:hidden}}a{{display:block;width:{w}px;height:{h}px;line-height:0}}a:focus-visible{{outline:2px solid #2563eb;outline-offset:-2px}}svg{{display:block}}",
        w = size.width(),
        h = size.height(),
    );
    let link_title = format!("Open the SEO report for {}", truncate_chars(domain, MAX_DOMAIN_LEN));
    html! {
        (PreEscaped("<!doctype html>\n"))
        html lang="en" {
            "\n"
            head {
                "\n"
                meta charset="utf-8"; "\n"
                meta name="viewport" content="width=device-width, initial-scale=1"; "\n"
                meta name="robots" content="noindex"; "\n"
                title { (badge_label(domain, score)) } "\n"
                style { (PreEscaped(style)) } "\n"
            }
            "\n"
            body {
                "\n"
                // The SVG is markup of its own, escaped by `render_svg`.
                a href=(report) target="_blank" rel="noopener" title=(link_title) {
                    (PreEscaped(render_svg(domain, score, color, size)))
                }
                "\n"
            }
            "\n"
        }
        "\n"
    }
    .into_string()
}

/// Cuts `text` with an ellipsis so that at `font_size` it is estimated to fit `avail` pixels.
fn fit_text(text: &str, font_size: f64, avail: f64) -> String {
    let max_em = avail / font_size;
    if text_em(text) <= max_em {
        return text.to_string();
    }
    let budget = max_em - char_em('…');
    let mut used = 0.0;
    let mut out = String::new();
    for c in text.chars() {
        used += char_em(c);
        if used > budget {
            break;
        }
        out.push(c);
    }
    out.push('…');
    out
}

/// The estimated width of `text` in em.
fn text_em(text: &str) -> f64 {
    text.chars().map(char_em).sum()
}

/// A conservative advance width in em for common sans-serif system fonts (a little wider
/// than Segoe UI, Roboto, Helvetica and Arial), so text estimated to fit does fit.
fn char_em(c: char) -> f64 {
    match c {
        'i' | 'j' | 'l' | '.' | ',' | '\'' | '|' | '!' | ':' | ';' => 0.3,
        'f' | 't' | 'r' | 'I' | '-' | '(' | ')' | '[' | ']' | ' ' | '/' => 0.42,
        'm' | 'w' => 0.92,
        'M' | 'W' => 0.98,
        '0'..='9' => 0.62,
        'A'..='Z' => 0.74,
        c if c.is_ascii() => 0.62,
        _ => 1.0,
    }
}

fn truncate_chars(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}…", &text[..cut]),
    }
}

/// A coordinate with at most one decimal, without a trailing `.0`.
fn num(v: f64) -> String {
    let s = format!("{v:.1}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

#[cfg(test)]
mod forms_tests {
    use super::domain_forms;

    #[test]
    fn alternate_forms() {
        assert_eq!(domain_forms("example.com"), ["example.com", "www.example.com"]);
        assert_eq!(domain_forms("www.example.com"), ["www.example.com", "example.com"]);
        assert_eq!(domain_forms("www.com"), ["www.com"]);
        assert_eq!(domain_forms("localhost"), ["localhost", "www.localhost"]);
    }
}

#[cfg(test)]
mod name_tests {
    use super::BadgeSize;

    #[test]
    fn badge_sizes_round_trip_by_their_parameter_values() {
        let names: Vec<&str> = BadgeSize::ALL.iter().map(|s| s.name()).collect();
        assert_eq!(names, ["small", "medium", "large"]);
        for &s in BadgeSize::ALL {
            assert_eq!(BadgeSize::parse(s.name()), Some(s));
        }
        assert_eq!(BadgeSize::parse("Large"), None);
        assert_eq!(BadgeSize::default(), BadgeSize::Medium);
    }
}
