//! The error page of the browser-facing routes (`GET /report/{domain}`, `GET /report?url=`):
//! a small self-contained page in the look of the report pages. The server sends it with
//! the error's status and its code in `x-error-code` (docs/API.md, "GET /report").

use maud::{html, PreEscaped};

/// The stylesheet of the error page.
const CSS: &str = r#"body{margin:0;font:16px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#111827;background:#f9fafb}main{max-width:40rem;margin:4rem auto;padding:0 1rem}h1{font-size:1.5rem;margin:0 0 1rem}.code{color:#4b5563;font-size:.875rem}code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}a{color:#1d4ed8}"#;

/// The page of an error with HTTP `status`, the error `code` and its `message`.
pub fn error_page(status: u16, code: &str, message: &str) -> String {
    let title = match status {
        400 => "That address cannot be audited",
        422 => "That page cannot be audited",
        429 => "Too many requests",
        502 | 504 => "The page did not answer",
        503 => "The service is busy",
        _ => "Something went wrong",
    };
    html! {
        (PreEscaped("<!doctype html>\n"))
        html lang="en" {
            "\n"
            head {
                "\n"
                meta charset="utf-8"; "\n"
                meta name="viewport" content="width=device-width, initial-scale=1"; "\n"
                meta name="robots" content="noindex, nofollow"; "\n"
                title { (title) } "\n"
                style { (PreEscaped(CSS)) } "\n"
            }
            "\n"
            body {
                "\n"
                main {
                    "\n"
                    h1 { (title) } "\n"
                    p class="message" { (message) } "\n"
                    p class="code" { "HTTP " (status) ", error code " code { (code) } } "\n"
                    p { a href="/" { "Audit another page" } } "\n"
                }
                "\n"
            }
            "\n"
        }
        "\n"
    }
    .into_string()
}

#[cfg(test)]
mod tests {
    use super::error_page;

    #[test]
    fn the_message_and_code_are_text() {
        let page = error_page(400, "invalid_url", "No <b>markup</b> & \"quotes\"");
        assert!(page.starts_with("<!doctype html>\n<html lang=\"en\">"));
        assert!(page.contains("<title>That address cannot be audited</title>"));
        assert!(page.contains("No &lt;b&gt;markup&lt;/b&gt; &amp; &quot;quotes&quot;"));
        assert!(page.contains("<p class=\"code\">HTTP 400, error code <code>invalid_url</code></p>"));
        assert!(error_page(503, "busy", "").contains("<h1>The service is busy</h1>"));
    }
}
