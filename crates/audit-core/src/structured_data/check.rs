//! Checks one item against the requirements of every rich result its type can earn.

use super::graph::{Graph, Node, Val};
use super::types::{Need, Requirement, Spec, Special, RETIRED, SPECS};
use super::values::Kind;
use super::{Item, Problem, ProblemSeverity};

/// A node reached from the item, with its path (`Product.offers[0]`).
struct At<'g> {
    node: &'g Node,
    path: String,
}

/// Checks the node `idx` of the graph.
pub fn check_item(g: &Graph, idx: usize) -> Item {
    let node = &g.nodes[idx];
    let type_ = node.types.first().cloned().unwrap_or_default();
    let mut item = Item {
        type_: type_.clone(),
        types: node.types.clone(),
        source: node.source,
        line: node.line,
        ..Item::default()
    };
    let root = At { node, path: type_ };
    for spec in SPECS.iter().filter(|s| node.types.iter().any(|t| s.types.contains(&t.as_str()))) {
        if !applies(g, node, spec.applies_if) {
            continue;
        }
        let mut problems = Vec::new();
        for r in spec.reqs {
            requirement(g, &root, spec, r, &mut problems);
        }
        for s in spec.special {
            special(g, &root, spec, *s, &mut problems);
        }
        let errors = problems.iter().filter(|p| p.severity == ProblemSeverity::Error).count();
        if errors == 0 {
            item.eligible.push(spec.rich_result.to_string());
        } else {
            item.not_eligible.push(spec.rich_result.to_string());
        }
        for p in problems {
            match p.severity {
                ProblemSeverity::Error => item.errors.push(p),
                ProblemSeverity::Warning => item.warnings.push(p),
            }
        }
    }
    if let Some(r) = RETIRED.iter().find(|r| node.types.iter().any(|t| r.types.contains(&t.as_str()))) {
        item.notice = Some(format!(
            "{} markup can be valid, but Google retired the {} rich result on {}: it earns none.",
            item.type_, r.rich_result, r.since
        ));
    }
    item
}

/// Whether a spec's condition holds: one of the `|`-separated properties is present (with a
/// nested item of the type after `:`, when one is named).
fn applies(g: &Graph, node: &Node, condition: &str) -> bool {
    condition.is_empty()
        || condition.split('|').any(|c| match c.split_once(':') {
            Some((prop, ty)) => node.get(prop).iter().any(|v| g.resolve(v).is_some_and(|n| type_matches(n, ty))),
            None => !node.get(c).is_empty(),
        })
}

fn problem(spec: &Spec, need: Need, path: String, message: String, line: u32) -> Problem {
    Problem {
        path,
        severity: match need {
            Need::Required => ProblemSeverity::Error,
            Need::Recommended => ProblemSeverity::Warning,
        },
        rich_result: spec.rich_result.to_string(),
        message,
        line,
    }
}

/// The nested items a dotted path names from `from`, each with its path. Text values are
/// not items and are left out.
fn nodes_at<'g>(g: &'g Graph, from: &At<'g>, path: &str) -> Vec<At<'g>> {
    let mut current = vec![At { node: from.node, path: from.path.clone() }];
    for seg in path.split('.').filter(|s| !s.is_empty()) {
        let mut next = Vec::new();
        for at in &current {
            for (i, v) in at.node.get(seg).iter().enumerate() {
                if let Some(node) = g.resolve(v) {
                    next.push(At { node, path: format!("{}.{seg}[{i}]", at.path) });
                }
            }
        }
        current = next;
    }
    current
}

/// The values a dotted path names from `base`: (value, path, line).
fn values_at<'g>(g: &'g Graph, base: &At<'g>, path: &str) -> Vec<(&'g Val, String, u32)> {
    let (parents, last) = match path.rsplit_once('.') {
        Some((p, last)) => (nodes_at(g, base, p), last),
        None => (vec![At { node: base.node, path: base.path.clone() }], path),
    };
    let mut out = Vec::new();
    for at in parents {
        let values = at.node.get(last);
        let line = at.node.line_of(last);
        for (i, v) in values.iter().enumerate() {
            let p = if values.len() > 1 { format!("{}.{last}[{i}]", at.path) } else { format!("{}.{last}", at.path) };
            out.push((v, p, line));
        }
    }
    out
}

fn type_matches(node: &Node, only: &str) -> bool {
    only.is_empty() || node.types.iter().any(|t| t == only)
}

fn requirement(g: &Graph, root: &At<'_>, spec: &Spec, r: &Requirement, out: &mut Vec<Problem>) {
    let bases: Vec<At<'_>> = if r.at.is_empty() {
        vec![At { node: root.node, path: root.path.clone() }]
    } else {
        nodes_at(g, root, r.at).into_iter().filter(|a| type_matches(a.node, r.only)).collect()
    };
    let need_word = match r.need {
        Need::Required => "required",
        Need::Recommended => "recommended",
    };
    for base in &bases {
        let alternatives: Vec<&str> = r.any.split('|').collect();
        let found = alternatives.iter().map(|alt| values_at(g, base, alt)).find(|v| !v.is_empty());
        let Some(values) = found else {
            let names = alternatives.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(" or ");
            let message = format!("{names} is {need_word} for the {} rich result and missing.", spec.rich_result);
            out.push(problem(spec, r.need, format!("{}.{}", base.path, alternatives[0]), message, base.node.line));
            continue;
        };
        for (value, path, line) in values {
            if let Some(why) = invalid(g, value, r.kind) {
                out.push(problem(spec, r.need, path, why, line));
            }
        }
    }
}

/// Why a value is not of its kind, or `None` when it is.
fn invalid(g: &Graph, value: &Val, kind: Kind) -> Option<String> {
    match value {
        Val::Text(t) => {
            if kind == Kind::Item && !t.trim().is_empty() {
                // A URL naming the item stands for it (`"author": "https://..."` is read
                // as a reference).
                return None;
            }
            (!kind.accepts_text(t)).then(|| {
                let shown: String = t.chars().take(80).collect();
                format!("\"{shown}\" is not a valid {}.", kind.describe())
            })
        }
        Val::Ref(id) => match kind {
            Kind::Enum(_, members) => (!members.contains(&super::graph::short_name(id)))
                .then(|| format!("\"{id}\" is not a valid {}.", kind.describe())),
            Kind::Url | Kind::Image => {
                (!super::values::is_absolute_url(id)).then(|| format!("\"{id}\" is not a valid {}.", kind.describe()))
            }
            _ => None,
        },
        Val::Node(_) => {
            let node = g.resolve(value)?;
            match kind {
                Kind::Any | Kind::Text | Kind::Item => None,
                Kind::Image | Kind::Url => {
                    let urls = ["url", "contentUrl"].iter().flat_map(|p| node.get(p)).chain(std::iter::empty());
                    let ok =
                        urls.into_iter().any(|v| matches!(v, Val::Text(t) if super::values::is_absolute_url(t.trim())))
                            || node.id.as_deref().is_some_and(super::values::is_absolute_url);
                    (!ok).then(|| {
                        format!(
                            "a {} needs an absolute URL in `url` or `contentUrl`.",
                            node.types.first().map_or("item", String::as_str)
                        )
                    })
                }
                _ => Some(format!("a nested item is not a valid {}.", kind.describe())),
            }
        }
    }
}

fn number(node: &Node, name: &str) -> Option<f64> {
    node.get(name).iter().find_map(|v| match v {
        Val::Text(t) => t.trim().parse::<f64>().ok().filter(|n| n.is_finite()),
        _ => None,
    })
}

fn special(g: &Graph, root: &At<'_>, spec: &Spec, s: Special, out: &mut Vec<Problem>) {
    match s {
        Special::RatingBounds => {
            let mut ratings: Vec<At<'_>> = Vec::new();
            if root.node.types.iter().any(|t| t.ends_with("AggregateRating") || t == "Rating") {
                ratings.push(At { node: root.node, path: root.path.clone() });
            }
            for path in ["reviewRating", "aggregateRating", "review.reviewRating"] {
                ratings.extend(nodes_at(g, root, path));
            }
            for r in ratings {
                let Some(value) = number(r.node, "ratingValue") else { continue };
                let best = number(r.node, "bestRating").unwrap_or(5.0);
                let worst = number(r.node, "worstRating").unwrap_or(1.0);
                if value < worst || value > best {
                    out.push(problem(
                        spec,
                        Need::Required,
                        format!("{}.ratingValue", r.path),
                        format!("ratingValue {value} lies outside {worst}..{best} (worstRating..bestRating)."),
                        r.node.line_of("ratingValue"),
                    ));
                }
            }
        }
        Special::YieldWithCalories => {
            let calories = nodes_at(g, root, "nutrition").iter().any(|n| !n.node.get("calories").is_empty());
            if calories && root.node.get("recipeYield").is_empty() {
                out.push(problem(
                    spec,
                    Need::Required,
                    format!("{}.recipeYield", root.path),
                    "`recipeYield` is required when `nutrition.calories` is given (calories are per serving).".into(),
                    root.node.line,
                ));
            }
        }
        Special::BreadcrumbItems => {
            let items = nodes_at(g, root, "itemListElement");
            let position = |a: &At<'_>| number(a.node, "position").unwrap_or(f64::MAX);
            let last = items.iter().map(position).fold(f64::MIN, f64::max);
            for a in &items {
                if a.node.get("item").is_empty() && position(a) < last {
                    out.push(problem(
                        spec,
                        Need::Required,
                        format!("{}.item", a.path),
                        "`item` (the URL of the breadcrumb) is required on every ListItem but the last.".into(),
                        a.node.line,
                    ));
                }
            }
        }
    }
}
