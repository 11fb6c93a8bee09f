//! generate_fixes: a ready-to-apply fix, filled with the page's own values, for each of
//! the top-ranked failed checks ([`app::fixes::fix_plan`]).

pub use app::fixes::{DEFAULT_TOP_N, MAX_TOP_N};
use mcp_protocol::ToolResult;
use serde_json::{Map, Value};

use super::{audit_url_arg, success, ToolEnv};

/// Runs the tool.
pub async fn call(env: &ToolEnv<'_>, args: &Map<String, Value>) -> ToolResult {
    let top_n = top_n(args.get("topN"));
    match audit_url_arg(env, args).await {
        Ok((url, done, _)) => success(app::fixes::fix_plan(url.as_str(), &done.audit, top_n)),
        Err(e) => e,
    }
}

/// `topN` as asked (the protocol layer checked its type and range), clamped to 1..=20.
pub fn top_n(value: Option<&Value>) -> usize {
    let n = value.and_then(Value::as_f64).map_or(DEFAULT_TOP_N as f64, f64::trunc);
    n.clamp(1.0, MAX_TOP_N as f64) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn top_n_defaults_and_bounds() {
        let check = |v: Option<Value>, expected: usize| assert_eq!(top_n(v.as_ref()), expected, "{v:?}");
        check(None, 5);
        check(Some(json!(1)), 1);
        check(Some(json!(20)), 20);
        check(Some(json!(3.0)), 3);
        check(Some(json!(99)), 20);
        check(Some(json!(0)), 1);
        check(Some(json!(-4)), 1);
    }
}
