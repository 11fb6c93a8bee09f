//! The one graph: JSON-LD (including `@graph`, `@id` references, arrays, nested objects and
//! several blocks), microdata (`itemscope`, `itemtype`, `itemprop`, `itemref`) and RDFa Lite
//! (`vocab`, `typeof`, `property`, `resource`) read into nodes with typed properties.

use std::collections::HashMap;

use serde_json::Value as Json;

use super::{JsonLd, MarkupElement, Source, MAX_DEPTH, MAX_ITEMS, MAX_NODES, MAX_PROPERTIES, MAX_VALUES, MAX_VISITS};
use crate::parse::Budget;

/// A property value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Val {
    /// Text (JSON strings, numbers and booleans as written, attribute values, element text).
    Text(String),
    /// A nested node.
    Node(usize),
    /// An `@id` reference, resolved through [`Graph::resolve`].
    Ref(String),
}

/// One node: a typed item or a nested object.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Node {
    /// Its types, schema.org types by their short name (`Product`).
    pub types: Vec<String>,
    /// `@id`, `itemid` or `resource`.
    pub id: Option<String>,
    /// Where it was read from.
    pub source: Source,
    /// The line where it starts.
    pub line: u32,
    /// Properties in the order read, short names, each with its values and the line where
    /// it was written.
    pub props: Vec<(String, Vec<Val>, u32)>,
}

impl Node {
    /// The values of a property (none when absent).
    pub fn get(&self, name: &str) -> &[Val] {
        self.props.iter().find(|(n, _, _)| n == name).map_or(&[], |(_, v, _)| v.as_slice())
    }

    /// The line where a property was written (the node's line when absent).
    pub fn line_of(&self, name: &str) -> u32 {
        self.props.iter().find(|(n, _, _)| n == name).map_or(self.line, |(_, _, l)| *l)
    }

    /// How many more values of a property the node keeps.
    fn room(&self, name: &str) -> usize {
        match self.props.iter().find(|(n, _, _)| n == name) {
            Some((_, values, _)) => MAX_VALUES - values.len(),
            None if self.props.len() < MAX_PROPERTIES => MAX_VALUES,
            None => 0,
        }
    }

    /// Adds a value to a property; `false` when it is not kept, past [`MAX_PROPERTIES`] or
    /// [`MAX_VALUES`].
    fn push(&mut self, name: &str, value: Val, line: u32) -> bool {
        // The last property first: a JSON array or repeated microdata adds to it in a row.
        let at = match self.props.last() {
            Some((n, _, _)) if n == name => Some(self.props.len() - 1),
            _ => self.props.iter().position(|(n, _, _)| n == name),
        };
        match at {
            Some(i) if self.props[i].1.len() < MAX_VALUES => self.props[i].1.push(value),
            None if self.props.len() < MAX_PROPERTIES => self.props.push((name.to_string(), vec![value], line)),
            _ => return false,
        }
        true
    }
}

/// Every node read from a page.
#[derive(Debug, Default)]
pub struct Graph {
    /// All nodes; indexes are [`Val::Node`].
    pub nodes: Vec<Node>,
    /// Top-level nodes, in the order read.
    pub top: Vec<usize>,
    ids: HashMap<String, usize>,
    /// Nodes not read past the bounds.
    pub not_read: usize,
    visits: usize,
    /// Whether the budget ran out while reading.
    pub stopped: bool,
    asked: usize,
}

/// Top-level items read between two questions to the budget.
const ASK_EVERY: usize = 64;

/// A schema.org type or property name by its short name: `https://schema.org/Product`,
/// `http://schema.org/Product` and `schema:Product` are `Product`; other names stay as
/// written.
pub fn short_name(name: &str) -> &str {
    let name = name.trim();
    for prefix in
        ["https://schema.org/", "http://schema.org/", "schema:", "https://www.schema.org/", "http://www.schema.org/"]
    {
        if let Some(rest) = name.strip_prefix(prefix) {
            return rest.trim_end_matches('/');
        }
    }
    name
}

impl Graph {
    /// Reads JSON-LD blocks and markup elements into one graph.
    pub fn read(json_ld: &[JsonLd], markup: &[MarkupElement], budget: &dyn Budget) -> Graph {
        let mut g = Graph::default();
        for block in json_ld {
            if let Some(value) = &block.value {
                g.json_top(value, block.line, budget);
            }
        }
        if !markup.is_empty() {
            let children = children_of(markup);
            g.microdata(markup, &children, budget);
            g.rdfa(markup, &children, budget);
        }
        g
    }

    /// Whether to stop reading: past [`MAX_ITEMS`] top-level items, or when the budget (asked
    /// every [`ASK_EVERY`] top-level items, so that a page of tens of thousands of items stays
    /// within the caller's budget) says so. Every item not read is counted in
    /// [`Graph::not_read`].
    fn out_of_budget(&mut self, budget: &dyn Budget) -> bool {
        if self.top.len() >= MAX_ITEMS {
            // Past the items checked: count, do not read.
            self.not_read += 1;
            return true;
        }
        if !self.stopped {
            self.asked += 1;
            if self.asked % ASK_EVERY == 0 && budget.exhausted() {
                self.stopped = true;
            }
        }
        if self.stopped {
            self.not_read += 1;
        }
        self.stopped
    }

    /// Follows an `@id` reference to the node defined with that id, if any.
    pub fn resolve<'a>(&'a self, value: &'a Val) -> Option<&'a Node> {
        match value {
            Val::Node(i) => self.nodes.get(*i),
            Val::Ref(id) => self.ids.get(id).and_then(|&i| self.nodes.get(i)),
            Val::Text(_) => None,
        }
    }

    /// The items to report: every top-level node with a type, and the `mainEntity` of a
    /// top-level node that earns no rich result itself (a `WebPage` whose main entity is a
    /// `Recipe`).
    pub fn items(&self) -> Vec<usize> {
        let mut out = Vec::new();
        for &i in &self.top {
            if self.nodes[i].types.is_empty() {
                continue;
            }
            out.push(i);
            for v in self.nodes[i].get("mainEntity") {
                // Only a main entity that can earn a rich result of its own (a Recipe of a
                // WebPage), not the Questions of an FAQPage or the Person of a ProfilePage.
                if let Val::Node(j) = v {
                    let own = |t: &String| super::types::SPECS.iter().any(|s| s.types.contains(&t.as_str()));
                    if self.nodes[*j].types.iter().any(own) && !self.nodes[i].types.iter().any(own) {
                        out.push(*j);
                    }
                }
            }
        }
        out
    }

    fn new_node(&mut self, source: Source, line: u32) -> Option<usize> {
        if self.nodes.len() >= MAX_NODES {
            self.not_read += 1;
            return None;
        }
        self.nodes.push(Node { source, line, ..Node::default() });
        Some(self.nodes.len() - 1)
    }

    fn register_id(&mut self, id: &str, node: usize) {
        self.ids.entry(id.to_string()).or_insert(node);
    }

    // JSON-LD.

    fn json_top(&mut self, value: &Json, line: u32, budget: &dyn Budget) {
        match value {
            Json::Array(items) => items.iter().for_each(|v| self.json_top(v, line, budget)),
            Json::Object(map) => {
                if self.out_of_budget(budget) {
                    return;
                }
                if let Some(graph) = map.get("@graph") {
                    let members: &[Json] = match graph {
                        Json::Array(a) => a,
                        other => std::slice::from_ref(other),
                    };
                    for m in members {
                        if self.out_of_budget(budget) {
                            continue;
                        }
                        if let Some(Val::Node(i)) = self.json_value(m, line, 1) {
                            self.top.push(i);
                        }
                    }
                    // An object with `@graph` may describe a node of its own too.
                    if !map.contains_key("@type") {
                        return;
                    }
                }
                if let Some(Val::Node(i)) = self.json_value(value, line, 0) {
                    self.top.push(i);
                }
            }
            _ => {}
        }
    }

    fn json_value(&mut self, value: &Json, line: u32, depth: usize) -> Option<Val> {
        match value {
            Json::String(s) => Some(Val::Text(s.clone())),
            Json::Number(n) => Some(Val::Text(n.to_string())),
            Json::Bool(b) => Some(Val::Text(b.to_string())),
            Json::Null | Json::Array(_) => None,
            Json::Object(map) => {
                if let Some(v) = map.get("@value") {
                    return match v {
                        Json::String(s) => Some(Val::Text(s.clone())),
                        Json::Number(n) => Some(Val::Text(n.to_string())),
                        Json::Bool(b) => Some(Val::Text(b.to_string())),
                        _ => None,
                    };
                }
                let id = map.get("@id").and_then(Json::as_str);
                let only_id = id.is_some() && map.keys().all(|k| k == "@id" || k == "@context");
                if only_id {
                    return id.map(|id| Val::Ref(id.to_string()));
                }
                if depth > MAX_DEPTH {
                    self.not_read += 1;
                    return None;
                }
                let i = self.new_node(Source::JsonLd, line)?;
                match map.get("@type") {
                    Some(Json::String(t)) => self.nodes[i].types.push(short_name(t).to_string()),
                    Some(Json::Array(ts)) => {
                        let types = ts.iter().filter_map(Json::as_str).map(|t| short_name(t).to_string());
                        self.nodes[i].types.extend(types);
                    }
                    _ => {}
                }
                if let Some(id) = id {
                    self.nodes[i].id = Some(id.to_string());
                    self.register_id(id, i);
                }
                for (key, v) in map {
                    if key.starts_with('@') {
                        continue;
                    }
                    let name = short_name(key);
                    let values: &[Json] = match v {
                        Json::Array(a) => a,
                        other => std::slice::from_ref(other),
                    };
                    // Values the node would not keep are counted before their nested objects
                    // are built.
                    let room = self.nodes[i].room(name);
                    self.not_read += values.len().saturating_sub(room);
                    for v in values.iter().take(room) {
                        if let Some(val) = self.json_value(v, line, depth + 1) {
                            if !self.nodes[i].push(name, val, line) {
                                self.not_read += 1;
                            }
                        }
                    }
                }
                Some(Val::Node(i))
            }
        }
    }

    // Microdata.

    fn microdata(&mut self, markup: &[MarkupElement], children: &[Vec<usize>], budget: &dyn Budget) {
        let ids: HashMap<&str, usize> =
            markup.iter().enumerate().filter_map(|(i, m)| m.id.as_deref().map(|id| (id, i))).collect();
        for (i, m) in markup.iter().enumerate() {
            if m.itemscope && m.itemprop.is_none() && !self.out_of_budget(budget) {
                if let Some(node) = self.micro_item(markup, children, &ids, i, 0) {
                    self.top.push(node);
                }
            }
        }
    }

    fn micro_item(
        &mut self,
        markup: &[MarkupElement],
        children: &[Vec<usize>],
        ids: &HashMap<&str, usize>,
        at: usize,
        depth: usize,
    ) -> Option<usize> {
        if depth > MAX_DEPTH || self.visits >= MAX_VISITS {
            self.not_read += 1;
            return None;
        }
        let m = &markup[at];
        let node = self.new_node(Source::Microdata, m.line)?;
        if let Some(types) = &m.itemtype {
            self.nodes[node].types = types.split_whitespace().map(|t| short_name(t).to_string()).collect();
        }
        if let Some(id) = &m.itemid {
            self.nodes[node].id = Some(id.clone());
            self.register_id(id, node);
        }
        // The item's properties: its descendants up to nested items, and the elements its
        // `itemref` names (with theirs).
        let mut pending: Vec<usize> = children[at].iter().rev().copied().collect();
        if let Some(refs) = &m.itemref {
            for id in refs.split_whitespace().rev() {
                if let Some(&r) = ids.get(id) {
                    if r != at {
                        pending.push(r);
                    }
                }
            }
        }
        let mut seen = std::collections::HashSet::new();
        while let Some(e) = pending.pop() {
            if !seen.insert(e) {
                continue;
            }
            if self.visits >= MAX_VISITS {
                self.not_read += 1;
                break;
            }
            self.visits += 1;
            let el = &markup[e];
            if let Some(props) = &el.itemprop {
                let value = if el.itemscope {
                    self.micro_item(markup, children, ids, e, depth + 1).map(Val::Node)
                } else {
                    Some(Val::Text(el.micro_value.clone().or_else(|| el.text.clone()).unwrap_or_default()))
                };
                if let Some(value) = value {
                    for p in props.split_whitespace() {
                        if !self.nodes[node].push(short_name(p), value.clone(), el.line) {
                            self.not_read += 1;
                        }
                    }
                }
            }
            if !el.itemscope {
                pending.extend(children[e].iter().rev().copied());
            }
        }
        Some(node)
    }

    // RDFa Lite.

    fn rdfa(&mut self, markup: &[MarkupElement], children: &[Vec<usize>], budget: &dyn Budget) {
        let scope = rdfa_scope(markup);
        for (i, m) in markup.iter().enumerate() {
            // A `typeof` with a `property` is the value of a property of the node around it;
            // one without starts a node of its own.
            if m.typeof_.is_some() && m.property.is_none() && scope[i] && !self.out_of_budget(budget) {
                if let Some(node) = self.rdfa_node(markup, children, i, 0) {
                    self.top.push(node);
                }
            }
        }
    }

    fn rdfa_node(
        &mut self,
        markup: &[MarkupElement],
        children: &[Vec<usize>],
        at: usize,
        depth: usize,
    ) -> Option<usize> {
        if depth > MAX_DEPTH || self.visits >= MAX_VISITS {
            self.not_read += 1;
            return None;
        }
        let m = &markup[at];
        let node = self.new_node(Source::Rdfa, m.line)?;
        if let Some(types) = &m.typeof_ {
            self.nodes[node].types = types.split_whitespace().map(|t| short_name(t).to_string()).collect();
        }
        if let Some(id) = &m.resource {
            self.nodes[node].id = Some(id.clone());
            self.register_id(id, node);
        }
        let mut pending: Vec<usize> = children[at].iter().rev().copied().collect();
        while let Some(e) = pending.pop() {
            if self.visits >= MAX_VISITS {
                self.not_read += 1;
                break;
            }
            self.visits += 1;
            let el = &markup[e];
            if let Some(props) = &el.property {
                let value = if el.typeof_.is_some() {
                    self.rdfa_node(markup, children, e, depth + 1).map(Val::Node)
                } else {
                    let v = el.content.clone().or_else(|| el.resource.clone()).or_else(|| el.href.clone());
                    Some(Val::Text(v.or_else(|| el.text.clone()).unwrap_or_default()))
                };
                if let Some(value) = value {
                    for p in props.split_whitespace() {
                        if !self.nodes[node].push(short_name(p), value.clone(), el.line) {
                            self.not_read += 1;
                        }
                    }
                }
            }
            if el.typeof_.is_none() {
                pending.extend(children[e].iter().rev().copied());
            }
        }
        Some(node)
    }
}

/// Whether RDFa applies at each element: it or an ancestor declares `vocab`, or its types are
/// written with the `schema:` prefix or as full schema.org URLs. Ancestors come first in
/// document order, so one pass does.
fn rdfa_scope(markup: &[MarkupElement]) -> Vec<bool> {
    let mut vocab = vec![false; markup.len()];
    let mut scope = vec![false; markup.len()];
    for (i, m) in markup.iter().enumerate() {
        vocab[i] = m.vocab.is_some() || m.parent.is_some_and(|p| vocab[p]);
        let written = m.typeof_.as_deref().unwrap_or_default();
        scope[i] = vocab[i] || written.split_whitespace().any(|t| short_name(t) != t);
    }
    scope
}

fn children_of(markup: &[MarkupElement]) -> Vec<Vec<usize>> {
    let mut children = vec![Vec::new(); markup.len()];
    for (i, m) in markup.iter().enumerate() {
        if let Some(p) = m.parent {
            children[p].push(i);
        }
    }
    children
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{HttpFacts, Page};

    fn graph(html: &str) -> (Page, Graph) {
        let page = Page::parse("https://example.com/p", html.as_bytes(), HttpFacts::new());
        // The page keeps the checked result only: read the markup again for the graph.
        let markup = crate::page::markup_of(html);
        let g = Graph::read(&page.json_ld, &markup, &crate::parse::Unlimited);
        (page, g)
    }

    fn text<'a>(g: &'a Graph, node: &'a Node, name: &str) -> Vec<&'a str> {
        node.get(name)
            .iter()
            .filter_map(|v| match v {
                Val::Text(t) => Some(t.as_str()),
                Val::Ref(r) => g.ids.get(r).map(|_| r.as_str()),
                Val::Node(_) => None,
            })
            .collect()
    }

    #[test]
    fn json_ld_graph_ids_arrays_nesting_and_lines() {
        let html = "<html><head>\n<script type=\"application/ld+json\">\n{\"@context\":\"https://schema.org\",\"@graph\":[\
            {\"@type\":\"Organization\",\"@id\":\"#org\",\"name\":\"Oak\"},\
            {\"@type\":[\"Product\"],\"name\":\"Chair\",\"brand\":{\"@id\":\"#org\"},\
             \"offers\":[{\"@type\":\"Offer\",\"price\":49.5},{\"@type\":\"Offer\",\"price\":{\"@value\":\"52\"}}]}]}\n</script>\n\
            <script type=\"application/ld+json\">[{\"@context\":\"https://schema.org\",\"@type\":\"schema:Article\",\"http://schema.org/headline\":\"H\"}]</script>\n\
            </head></html>";
        let (page, g) = graph(html);
        assert_eq!(page.json_ld[0].line, 2);
        assert_eq!(page.json_ld[1].line, 5);
        let types: Vec<_> = g.top.iter().map(|&i| g.nodes[i].types.join(",")).collect();
        assert_eq!(types, ["Organization", "Product", "Article"]);
        let product = &g.nodes[g.top[1]];
        assert_eq!(product.line, 2);
        let brand = g.resolve(&product.get("brand")[0]).expect("the @id reference resolves");
        assert_eq!(text(&g, brand, "name"), ["Oak"]);
        let prices: Vec<_> =
            product.get("offers").iter().map(|o| text(&g, g.resolve(o).unwrap(), "price")[0].to_string()).collect();
        assert_eq!(prices, ["49.5", "52"]);
        assert_eq!(text(&g, &g.nodes[g.top[2]], "headline"), ["H"]);
    }

    #[test]
    fn microdata_with_nesting_itemref_and_value_attributes() {
        let html = "<div itemscope itemtype=\"https://schema.org/Product\" itemref=\"extra\">\n\
            <h1 itemprop=\"name\">Oak  chair</h1>\n\
            <img itemprop=\"image\" src=\"https://example.com/c.jpg\">\n\
            <div itemprop=\"offers\" itemscope itemtype=\"https://schema.org/Offer\">\n\
              <meta itemprop=\"priceCurrency\" content=\"EUR\"><span itemprop=\"price\">49.00</span>\n\
              <link itemprop=\"availability\" href=\"https://schema.org/InStock\">\n\
            </div></div>\n\
            <p id=\"extra\"><span itemprop=\"description\">Solid oak</span></p>";
        let (_, g) = graph(html);
        assert_eq!(g.top.len(), 1, "the nested Offer is a property, not an item");
        let p = &g.nodes[g.top[0]];
        assert_eq!(p.types, ["Product"]);
        assert_eq!(p.source, Source::Microdata);
        assert_eq!(p.line, 1);
        assert_eq!(text(&g, p, "name"), ["Oak chair"]);
        assert_eq!(text(&g, p, "image"), ["https://example.com/c.jpg"]);
        assert_eq!(text(&g, p, "description"), ["Solid oak"], "read through itemref");
        let offer = g.resolve(&p.get("offers")[0]).unwrap();
        assert_eq!(offer.types, ["Offer"]);
        assert_eq!(offer.line, 4);
        assert_eq!(text(&g, offer, "price"), ["49.00"]);
        assert_eq!(text(&g, offer, "priceCurrency"), ["EUR"]);
        assert_eq!(text(&g, offer, "availability"), ["https://schema.org/InStock"]);
        assert_eq!(p.line_of("description"), 8);
    }

    #[test]
    fn rdfa_lite_with_vocab_typeof_property_and_resource() {
        let html = "<body vocab=\"https://schema.org/\">\n\
            <ol typeof=\"BreadcrumbList\">\n\
              <li property=\"itemListElement\" typeof=\"ListItem\">\n\
                <a property=\"item\" typeof=\"WebPage\" href=\"https://example.com/books\"><span property=\"name\">Books</span></a>\n\
                <meta property=\"position\" content=\"1\"></li>\n\
            </ol>\n\
            <meta property=\"og:title\" content=\"Not RDFa of schema.org\">\n\
            <div typeof=\"Person\" resource=\"#me\"><span property=\"name\">Ada</span></div></body>";
        let (_, g) = graph(html);
        let types: Vec<_> = g.top.iter().map(|&i| g.nodes[i].types.join(",")).collect();
        assert_eq!(types, ["BreadcrumbList", "Person"]);
        let list = &g.nodes[g.top[0]];
        assert_eq!(list.source, Source::Rdfa);
        assert_eq!(list.line, 2);
        let li = g.resolve(&list.get("itemListElement")[0]).unwrap();
        assert_eq!(text(&g, li, "position"), ["1"]);
        let page = g.resolve(&li.get("item")[0]).unwrap();
        assert_eq!(page.types, ["WebPage"]);
        assert_eq!(text(&g, page, "name"), ["Books"]);
        assert_eq!(g.nodes[g.top[1]].id.as_deref(), Some("#me"));
    }

    fn json_ld_page(json: &str) -> String {
        format!("<script type=\"application/ld+json\">{json}</script>")
    }

    #[test]
    fn reading_is_bounded() {
        // Items: the first MAX_ITEMS are read, the rest counted.
        let items: String = (0..MAX_ITEMS + 50).map(|i| format!("{{\"@type\":\"Thing\",\"name\":\"{i}\"}},")).collect();
        let (_, g) = graph(&json_ld_page(&format!("[{items}{{}}]")));
        assert_eq!(g.top.len(), MAX_ITEMS);
        assert_eq!(g.not_read, 51, "50 items and the empty object past the bound");
        // Nodes: 30 items of 1,000 offers each want 30,030 nodes.
        let offers = format!("[{}{{}}]", "{\"@type\":\"Offer\",\"price\":\"1\"},".repeat(999));
        let items = vec![format!("{{\"@type\":\"Product\",\"offers\":{offers}}}"); 30].join(",");
        let (_, g) = graph(&json_ld_page(&format!("[{items}]")));
        assert_eq!(g.nodes.len(), MAX_NODES);
        // Counted per object where reading stopped (its nested objects are not built).
        assert!(g.not_read >= 10, "{}", g.not_read);
        // Properties of one node: 5,000 distinct names, and 3,000 values of one.
        let keys: String = (0..5_000).map(|i| format!(",\"p{i}\":1")).collect();
        let (_, g) = graph(&json_ld_page(&format!("{{\"@type\":\"Thing\"{keys}}}")));
        assert_eq!(g.nodes[0].props.len(), MAX_PROPERTIES);
        assert_eq!(g.not_read, 5_000 - MAX_PROPERTIES);
        let values = vec!["\"n\""; 3_000].join(",");
        let (_, g) = graph(&json_ld_page(&format!("{{\"@type\":\"Thing\",\"name\":[{values}]}}")));
        assert_eq!(g.nodes[0].get("name").len(), MAX_VALUES);
        assert_eq!(g.not_read, 3_000 - MAX_VALUES);
        // The same bounds hold for microdata: one item of 5,000 distinct properties.
        let props: String = (0..5_000).map(|i| format!("<b itemprop=p{i}>x</b>")).collect();
        let (_, g) = graph(&format!("<div itemscope itemtype=https://schema.org/Thing>{props}</div>"));
        assert_eq!(g.nodes[0].props.len(), MAX_PROPERTIES);
        assert_eq!(g.not_read, 5_000 - MAX_PROPERTIES);
    }

    #[test]
    fn json_ld_past_the_byte_bound_is_counted_not_parsed() {
        use crate::rule::{Outcome, Rule};
        use crate::rules::structured::{StructuredDataInvalidJson, StructuredDataMissing};
        let big = format!("[{}{{}}]", "{\"@type\":\"Thing\",\"name\":\"a thing\"},".repeat(30_000));
        assert!(big.len() > super::super::MAX_JSON_LD_BYTES);
        let small = "{\"@context\":\"https://schema.org\",\"@type\":\"Organization\",\"name\":\"Oak\"}";
        let (page, _) = graph(&format!("{}{}", json_ld_page(&big), json_ld_page(small)));
        let blocks: Vec<_> = page.json_ld.iter().map(|b| (b.not_read, b.value.is_some(), b.error.is_some())).collect();
        assert_eq!(blocks, [(true, false, false), (false, true, false)], "the smaller block after it still fits");
        let sd = &page.structured_data;
        assert_eq!((sd.blocks_not_read, sd.items.len(), sd.invalid_blocks.len()), (1, 1, 0));
        assert_eq!(sd.items[0].type_, "Organization");
        // Unread is neither missing nor invalid.
        assert!(matches!(StructuredDataMissing.check(&page), Outcome::Pass));
        assert!(!matches!(StructuredDataInvalidJson.check(&page), Outcome::Fail(_)));
        let (alone, _) = graph(&json_ld_page(&big));
        assert!(matches!(StructuredDataMissing.check(&alone), Outcome::Pass));
        assert_eq!(alone.structured_data.blocks_not_read, 1);
    }

    #[test]
    fn ten_thousand_microdata_items_are_counted_and_itemref_fan_out_is_bounded() {
        let item = "<div itemscope itemtype=https://schema.org/Product><span itemprop=name>p</span>\
            <div itemprop=offers itemscope itemtype=https://schema.org/Offer><span itemprop=price>free</span></div></div>";
        let (page, g) = graph(&item.repeat(10_000));
        assert_eq!(g.top.len(), MAX_ITEMS);
        assert_eq!(page.structured_data.items.len(), MAX_ITEMS);
        assert_eq!(page.structured_data.nodes_not_read, 10_000 - MAX_ITEMS);
        // Each Product lacks what its two rich results require: the list stops at the bound,
        // eligibility does not.
        let sd = &page.structured_data;
        let listed: usize = sd.items.iter().map(|i| i.errors.len() + i.warnings.len()).sum();
        assert_eq!(listed, super::super::MAX_PROBLEMS);
        assert!(sd.problems_not_listed > 0);
        assert!(sd.items.iter().all(|i| i.eligible.is_empty() && !i.not_eligible.is_empty()));
        // 500 items each naming a block of 2,000 properties: a million visits unbounded.
        let html = format!(
            "<div id=s>{}</div>{}",
            "<span itemprop=description>d</span>".repeat(2000),
            "<div itemscope itemtype=https://schema.org/Thing itemref=s></div>".repeat(500)
        );
        let (page, g) = graph(&html);
        assert_eq!(g.visits, MAX_VISITS);
        assert!(page.structured_data.nodes_not_read > 0, "the bound is reported");
    }
}
