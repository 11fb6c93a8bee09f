//! The bounded HTML parser: html5ever's tokenizer and tree builder, with the work one page
//! may cost bounded whatever its markup.
//!
//! html5ever implements the HTML standard faithfully, and the standard's tree construction is
//! superlinear on hostile input: every start tag walks the stack of open elements for scope
//! checks, so 100,000 nested `<div>` cost 10^10 steps (minutes of CPU). Browsers bound it;
//! so do we, in three ways:
//!
//! - **Depth, as Chromium does.** Chromium's parser (`kMaximumHTMLParserDOMTreeDepth`) stops
//!   nesting once 512 elements are open: an element inserted then is attached to the current
//!   node's parent, beside the deepest element, and stays open. Here such an element is
//!   attached at the same place and closed at once (its end tag, when it comes, is matched
//!   with it), so html5ever's stack never grows past the limit and each tag costs at most a
//!   walk of 512 entries. `<div>` nested 1,000 times gives elements at most 513 levels deep
//!   (`<html>` is level 1), in Chromium and here. Text and the children of such elements land
//!   at the deepest level instead of inside them; only pages nested that deep differ.
//! - **Active formatting elements.** The standard re-opens every active formatting element
//!   (`<b>`, `<font>`, ...) after a misnested end tag; with distinct attributes the list has
//!   no bound and each re-opening copies all of it. Past [`MAX_FORMATTING`] entries, a
//!   formatting start tag is inserted and closed at once, like a flattened element.
//! - **A budget.** The input is fed in chunks of [`CHUNK_BYTES`]; between chunks, and every
//!   [`CHECK_EVERY_TOKENS`] tokens within one, the caller's [`Budget`] is asked whether to go
//!   on, and at most [`MAX_NODES`] nodes are built. Once either says stop, the rest of the
//!   input is dropped and the document is finished from what was parsed: the audit covers
//!   that part, and [`Analysis`] says where it stopped.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, CharacterTokens, EndTag, StartTag, Tag, TagToken, Token, TokenSink, TokenSinkResult, Tokenizer,
    TokenizerOpts,
};
use html5ever::tree_builder::{
    AppendNode, Attribute, ElementFlags, NodeOrText, QuirksMode, Tracer, TreeBuilder, TreeBuilderOpts, TreeSink,
};
use html5ever::{local_name, ExpandedName, LocalName, QualName, TokenizerResult};
use markup5ever_rcdom::{Handle, RcDom};
use serde::Serialize;

/// Open elements past which the parser stops nesting (Chromium's
/// `kMaximumHTMLParserDOMTreeDepth`).
pub const MAX_OPEN_ELEMENTS: usize = 512;
/// Active formatting elements past which a formatting start tag no longer stays open.
pub const MAX_FORMATTING: usize = 64;
/// Nodes (elements, text runs, comments) one page may build; past that, parsing stops.
/// About 60 MB of tree, and 50 times the elements of a very large real page.
pub const MAX_NODES: usize = 500_000;
/// Bytes of decoded input fed to the tokenizer at a time.
pub const CHUNK_BYTES: usize = 4 * 1024;
/// Tokens between two questions to the [`Budget`] within a chunk.
pub const CHECK_EVERY_TOKENS: u32 = 512;

/// Tells the parser when to stop. The engine has no clock of its own: the caller decides
/// what the budget is (CPU time, a deadline, a cancelled request) and answers here.
pub trait Budget {
    /// Whether the analysis must stop now. Called between input chunks and every few hundred
    /// tokens, so it should be cheap (a clock read, an atomic load).
    fn exhausted(&self) -> bool;

    /// Whether the work after the parse must stop now: the walk over the tree that reads the
    /// page's elements and records where they are, and the reading of its structured data.
    /// That work grows with the tree the parser left, which can be large even when the parse
    /// was cut, so it has a budget of its own rather than being trusted to be small; asked
    /// every [`WALK_CHECK_EVERY_NODES`] nodes. By default the same answer as
    /// [`Budget::exhausted`].
    fn after_parse_exhausted(&self) -> bool {
        self.exhausted()
    }
}

/// Nodes the walk over the tree visits between two questions to
/// [`Budget::after_parse_exhausted`].
pub const WALK_CHECK_EVERY_NODES: u32 = 1024;

/// No budget: parse to the end (the structural limits still apply).
#[derive(Debug, Clone, Copy, Default)]
pub struct Unlimited;

impl Budget for Unlimited {
    fn exhausted(&self) -> bool {
        false
    }
}

impl<F: Fn() -> bool> Budget for F {
    fn exhausted(&self) -> bool {
        self()
    }
}

/// Why parsing stopped before the end of the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Stop {
    /// The caller's [`Budget`] ran out (its time, or the request went away).
    Budget,
    /// The page built [`MAX_NODES`] nodes.
    Nodes,
    /// The page was parsed as far as [`Analysis::parsed_bytes`] says, but the budget of the
    /// work after the parse ([`Budget::after_parse_exhausted`]) ran out while reading its
    /// elements or its structured data: what comes after that point is not audited.
    AfterParse,
}

/// How much of the page the analysis covered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[non_exhaustive]
pub struct Analysis {
    /// Why parsing stopped early; `None` when the whole document was parsed.
    pub stopped: Option<Stop>,
    /// Bytes of the decoded document (UTF-8) given to the parser.
    pub parsed_bytes: usize,
    /// Bytes of the decoded document (UTF-8) in all.
    pub total_bytes: usize,
    /// Elements attached at the depth limit instead of inside the open element
    /// ([`MAX_OPEN_ELEMENTS`]), or closed at once past [`MAX_FORMATTING`].
    pub flattened_elements: usize,
}

impl Analysis {
    /// Whether the whole document was parsed.
    pub fn is_complete(&self) -> bool {
        self.stopped.is_none()
    }
}

/// The tree and how far parsing went.
pub(crate) struct Parsed {
    pub dom: RcDom,
    pub analysis: Analysis,
    pub parse_errors: usize,
    /// What a `<noscript>` in the head did to the tree (see [`HeadNoscript`]).
    pub head_noscript: HeadNoscript,
    /// What ended the head before the page closed it (`</head>` or `<body>`): the start tag
    /// or text the head cannot hold, and its line. Everything after it is body, where search
    /// engines do not read head metadata. A `<noscript>` of the head is left out: a browser
    /// running scripts reads its content as text.
    pub head_ended_by: Option<(String, u32)>,
    /// The line of the start tag of each element that structured data is read from
    /// (`<script>`, and elements with microdata or RDFa attributes or an `id`), by address.
    pub lines: HashMap<usize, u32>,
    /// Where the start tag of each element that findings point at ([`is_located`]) is in the
    /// decoded text, by address: the byte offset of its `<`, the offset just past its `>`, and
    /// the line of that `>` as the tokenizer counted it (the tokenizer counts lines anyway, so
    /// locating an element needs no scan of the page for line breaks).
    pub spans: Spans,
}

/// Start-tag spans by element address (see [`Parsed::spans`]).
pub(crate) type Spans = HashMap<usize, (u32, u32, u32), std::hash::BuildHasherDefault<AddressHasher>>;

/// A hasher for element addresses: they are distinct and aligned, so a multiplication mixes
/// them well enough, at a fraction of SipHash's cost (the walk looks one up per element that
/// findings may point at).
#[derive(Default)]
pub(crate) struct AddressHasher(u64);

impl std::hash::Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.0 = (n as u64 >> 3).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// The parser runs with scripting off, so the content of `<noscript>` is markup. In the head
/// that differs from a browser running scripts (Googlebot's renderer, Lighthouse) more than
/// elsewhere: there, everything up to `</noscript>` is text inside it, while with scripting
/// off an element the head cannot hold (the `<img>` of a tracking pixel) ends the head and
/// starts the body. Elements built inside such a `<noscript>` are recorded here, and whether
/// the body started there: then the head elements that follow it are in the body of this
/// tree, but in the head for a browser running scripts.
#[derive(Debug, Default)]
pub(crate) struct HeadNoscript {
    /// Addresses of the elements built between a `<noscript>` start tag met before the body
    /// and its end tag (`<html>`, `<head>` and `<body>` left out).
    pub elements: std::collections::HashSet<usize>,
    /// Whether the body element was built there.
    pub opened_body: bool,
}

impl HeadNoscript {
    /// Whether `node` was built inside a `<noscript>` of the head.
    pub fn contains(&self, node: &Handle) -> bool {
        !self.elements.is_empty() && self.elements.contains(&(std::rc::Rc::as_ptr(node) as usize))
    }
}

/// Parses a decoded document with scripting off, within the limits of this module.
pub(crate) fn parse(text: StrTendril, budget: &dyn Budget) -> Parsed {
    let total = text.len();
    let opts = TreeBuilderOpts { scripting_enabled: false, ..TreeBuilderOpts::default() };
    let sink = BoundedSink::default();
    let queue = BufferQueue::default();
    let filter = Filter::new(TreeBuilder::new(sink, opts), budget, &queue, &text);
    let tokenizer = Tokenizer::new(filter, TokenizerOpts::default());
    let mut offset = 0usize;
    while offset < total {
        if tokenizer.sink.check_stop() {
            break;
        }
        let mut end = (offset + CHUNK_BYTES).min(total);
        while !text.is_char_boundary(end) {
            end += 1;
        }
        queue.push_back(text.subtendril(offset as u32, (end - offset) as u32));
        offset = end;
        tokenizer.sink.fed_end.set(end);
        while let TokenizerResult::Script(_) = tokenizer.feed(&queue) {}
    }
    // Once stopped, the rest of the chunk was tokenized but dropped.
    let stopped = tokenizer.sink.stopped.get();
    tokenizer.end();
    let filter = tokenizer.sink;
    let flattened = filter.flattened.get();
    let spans = filter.spans.into_inner();
    let sink = filter.builder.sink;
    let parse_errors = sink.errors.get();
    let head_noscript = sink.head_noscript.into_inner();
    let head_ended_by = sink.head_ended_by.into_inner();
    let lines = sink.lines.into_inner();
    Parsed {
        head_noscript,
        head_ended_by,
        lines,
        spans,
        dom: sink.dom,
        analysis: Analysis {
            stopped,
            parsed_bytes: if stopped.is_some() { offset } else { total },
            total_bytes: total,
            flattened_elements: flattened,
        },
        parse_errors,
    }
}

/// Parses a decoded document the standard way: html5ever's own driver, no limits. For tests
/// that hold the bounded parser to it.
#[cfg(test)]
pub(crate) fn parse_unbounded(text: StrTendril) -> RcDom {
    let opts = html5ever::ParseOpts {
        tree_builder: TreeBuilderOpts { scripting_enabled: false, ..TreeBuilderOpts::default() },
        ..html5ever::ParseOpts::default()
    };
    use html5ever::tendril::TendrilSink as _;
    html5ever::parse_document(RcDom::default(), opts).one(text)
}

/// html5ever's tree sink around [`RcDom`]: counts what is built, can attach elements one
/// level up (the depth limit), and reports the handle the tree builder names when asked.
#[derive(Default)]
struct BoundedSink {
    dom: RcDom,
    /// Parse errors, counted (the DOM's own list would keep a message per error).
    errors: Cell<usize>,
    /// Elements created.
    elements: Cell<usize>,
    /// Nodes created (elements, comments, text insertions).
    nodes: Cell<usize>,
    /// The element created last.
    last_created: RefCell<Option<Handle>>,
    /// While set, elements appended to a node are appended to its parent instead.
    attach_to_parent: Cell<bool>,
    /// While set, the next element the tree builder asks the name of is kept in `probed`.
    probing: Cell<bool>,
    probed: RefCell<Option<Handle>>,
    /// Whether a `<body>` element has been built.
    body_built: Cell<bool>,
    /// Whether the tokens come from inside a `<noscript>` met before the body.
    in_head_noscript: Cell<bool>,
    /// Whether the page closed its head itself (`</head>`, `<body>`, `</body>`, `</html>`).
    head_closed: Cell<bool>,
    /// The token being processed, as a finding names it (`<div>`, the text "…"), with the
    /// line breaks between its start and where the tokenizer's line count stands.
    current: RefCell<Option<(String, u64)>>,
    /// See [`Parsed::head_ended_by`].
    head_ended_by: RefCell<Option<(String, u32)>>,
    /// Whether a `<noscript>` of the head built the body, and the head (as a browser running
    /// scripts reads it) has not ended yet.
    head_noscript_body: Cell<bool>,
    head_noscript: RefCell<HeadNoscript>,
    /// The line of the token being processed, as the tree builder reports it.
    line: Cell<u64>,
    /// See [`Parsed::lines`].
    lines: RefCell<HashMap<usize, u32>>,
    /// The address of the element created last when it is one findings point at
    /// ([`is_located`]), else 0.
    last_located: Cell<usize>,
}

/// Whether the page closes its head with this tag itself: `<body>`, `</head>`, `</body>` or
/// `</html>`.
fn closes_head(tag: &Tag) -> bool {
    match tag.kind {
        StartTag => tag.name == local_name!("body"),
        EndTag => matches!(tag.name, local_name!("head") | local_name!("body") | local_name!("html")),
    }
}

/// Elements the head holds (and `<html>`, `<head>` and `<body>` themselves): another start tag
/// ends a head that a browser running scripts reads; anything else outside the head is content
/// (the page walk reads it so too).
pub(crate) fn is_head_element(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("html")
            | local_name!("head")
            | local_name!("body")
            | local_name!("meta")
            | local_name!("link")
            | local_name!("title")
            | local_name!("style")
            | local_name!("script")
            | local_name!("base")
            | local_name!("noscript")
            | local_name!("template")
    )
}

/// Whether findings may point at an element with this name whatever its attributes: the
/// elements the page walk records as facts. Only their start tags' spans are kept, and
/// those of the elements structured data is read from ([`is_structured_data_element`]).
fn is_located(name: &QualName) -> bool {
    if name.ns != html5ever::ns!(html) {
        return false;
    }
    matches!(
        name.local,
        local_name!("html")
            | local_name!("head")
            | local_name!("title")
            | local_name!("meta")
            | local_name!("link")
            | local_name!("script")
            | local_name!("img")
            | local_name!("picture")
            | local_name!("form")
            | local_name!("a")
            | local_name!("h1")
            | local_name!("h2")
            | local_name!("h3")
            | local_name!("h4")
            | local_name!("h5")
            | local_name!("h6")
            | local_name!("iframe")
            | local_name!("audio")
            | local_name!("video")
            | local_name!("source")
            | local_name!("embed")
            | local_name!("object")
    )
}

/// Whether structured data may be read from an element with these attributes (see
/// [`Parsed::lines`]): only those elements have their line kept.
fn is_structured_data_element(name: &QualName, attrs: &[Attribute]) -> bool {
    name.local == local_name!("script")
        || attrs.iter().any(|a| {
            // Every attribute of every element is asked: names are matched as atoms (an
            // integer comparison each), the two without a static atom as text, last.
            a.name.ns == html5ever::ns!()
                && match a.name.local {
                    local_name!("itemscope")
                    | local_name!("itemprop")
                    | local_name!("itemtype")
                    | local_name!("property")
                    | local_name!("id") => true,
                    ref other => matches!(&**other, "typeof" | "vocab"),
                }
        })
}

fn parent_of(node: &Handle) -> Option<Handle> {
    let weak = node.parent.take()?;
    let parent = weak.upgrade();
    node.parent.set(Some(weak));
    parent
}

impl TreeSink for BoundedSink {
    type Handle = Handle;
    type Output = Self;
    type ElemName<'a>
        = ExpandedName<'a>
    where
        Self: 'a;

    fn finish(self) -> Self {
        self
    }

    fn set_current_line(&self, line: u64) {
        self.line.set(line);
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {
        self.errors.set(self.errors.get() + 1);
    }

    fn get_document(&self) -> Handle {
        self.dom.get_document()
    }

    fn elem_name<'a>(&'a self, target: &'a Handle) -> ExpandedName<'a> {
        if self.probing.get() {
            self.probing.set(false);
            *self.probed.borrow_mut() = Some(target.clone());
        }
        self.dom.elem_name(target)
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> Handle {
        self.elements.set(self.elements.get() + 1);
        self.nodes.set(self.nodes.get() + 1);
        let structural = name.ns == html5ever::ns!(html)
            && matches!(name.local, local_name!("html") | local_name!("head") | local_name!("body"));
        let is_body = name.ns == html5ever::ns!(html) && name.local == local_name!("body");
        let keep_line = is_structured_data_element(&name, &attrs);
        let located = keep_line || is_located(&name);
        let element = self.dom.create_element(name, attrs, flags);
        let address = std::rc::Rc::as_ptr(&element) as usize;
        if keep_line {
            let line = u32::try_from(self.line.get().max(1)).unwrap_or(u32::MAX);
            self.lines.borrow_mut().insert(address, line);
        }
        self.last_located.set(if located { address } else { 0 });
        if self.in_head_noscript.get() {
            let mut record = self.head_noscript.borrow_mut();
            if !structural {
                record.elements.insert(std::rc::Rc::as_ptr(&element) as usize);
            }
            record.opened_body |= is_body;
            if is_body && !self.head_closed.get() {
                self.head_noscript_body.set(true);
            }
        }
        if is_body && !self.body_built.get() && !self.head_closed.get() && !self.in_head_noscript.get() {
            if let Some((what, breaks)) = self.current.borrow().clone() {
                let line = u32::try_from(self.line.get().saturating_sub(breaks).max(1)).unwrap_or(u32::MAX);
                *self.head_ended_by.borrow_mut() = Some((what, line));
            }
        }
        if is_body {
            self.body_built.set(true);
        }
        *self.last_created.borrow_mut() = Some(element.clone());
        element
    }

    fn create_comment(&self, text: StrTendril) -> Handle {
        self.nodes.set(self.nodes.get() + 1);
        self.dom.create_comment(text)
    }

    fn create_pi(&self, target: StrTendril, data: StrTendril) -> Handle {
        self.nodes.set(self.nodes.get() + 1);
        self.dom.create_pi(target, data)
    }

    fn append(&self, parent: &Handle, child: NodeOrText<Handle>) {
        match child {
            AppendNode(node) if self.attach_to_parent.get() => match parent_of(parent) {
                Some(grandparent) => self.dom.append(&grandparent, AppendNode(node)),
                None => self.dom.append(parent, AppendNode(node)),
            },
            child => {
                if matches!(child, NodeOrText::AppendText(_)) {
                    self.nodes.set(self.nodes.get() + 1);
                }
                self.dom.append(parent, child)
            }
        }
    }

    fn append_based_on_parent_node(&self, element: &Handle, prev_element: &Handle, child: NodeOrText<Handle>) {
        self.dom.append_based_on_parent_node(element, prev_element, child)
    }

    fn append_doctype_to_document(&self, name: StrTendril, public_id: StrTendril, system_id: StrTendril) {
        self.dom.append_doctype_to_document(name, public_id, system_id)
    }

    fn mark_script_already_started(&self, node: &Handle) {
        self.dom.mark_script_already_started(node)
    }

    fn get_template_contents(&self, target: &Handle) -> Handle {
        self.dom.get_template_contents(target)
    }

    fn same_node(&self, x: &Handle, y: &Handle) -> bool {
        self.dom.same_node(x, y)
    }

    fn set_quirks_mode(&self, mode: QuirksMode) {
        self.dom.set_quirks_mode(mode)
    }

    fn append_before_sibling(&self, sibling: &Handle, new_node: NodeOrText<Handle>) {
        self.dom.append_before_sibling(sibling, new_node)
    }

    fn add_attrs_if_missing(&self, target: &Handle, attrs: Vec<Attribute>) {
        self.dom.add_attrs_if_missing(target, attrs)
    }

    fn remove_from_parent(&self, target: &Handle) {
        self.dom.remove_from_parent(target)
    }

    fn reparent_children(&self, node: &Handle, new_parent: &Handle) {
        self.dom.reparent_children(node, new_parent)
    }

    fn is_mathml_annotation_xml_integration_point(&self, handle: &Handle) -> bool {
        self.dom.is_mathml_annotation_xml_integration_point(handle)
    }
}

/// Counts the tree builder's open elements: its handles are traced in a fixed order (the
/// document, the open elements from `<html>` to the current node, then the active
/// formatting elements and a few pointers), so the current node's first appearance ends
/// the stack.
struct StackCounter {
    current: Handle,
    seen: Cell<usize>,
    open: Cell<Option<usize>>,
}

impl Tracer for StackCounter {
    type Handle = Handle;

    fn trace_handle(&self, node: &Handle) {
        let seen = self.seen.get() + 1;
        self.seen.set(seen);
        if self.open.get().is_none() && std::rc::Rc::ptr_eq(node, &self.current) {
            // `seen` counts the document too.
            self.open.set(Some(seen - 1));
        }
    }
}

/// What the tree builder holds, as counted by [`StackCounter`].
#[derive(Debug, Clone, Copy)]
struct Held {
    open: usize,
    /// Active formatting elements and the builder's element pointers (head, form).
    others: usize,
}

/// The token sink between html5ever's tokenizer and its tree builder: enforces the limits.
struct Filter<'b> {
    builder: TreeBuilder<Handle, BoundedSink>,
    budget: &'b dyn Budget,
    /// The tokenizer's input: what it still holds tells where in the text a token ended.
    queue: &'b BufferQueue,
    /// The decoded text being parsed.
    text: &'b str,
    /// The offset in `text` just past the input given to the tokenizer so far.
    fed_end: Cell<usize>,
    /// The offset in `text` where the last token ended.
    last_end: Cell<usize>,
    /// See [`Parsed::spans`].
    spans: RefCell<Spans>,
    stopped: Cell<Option<Stop>>,
    tokens: Cell<u32>,
    flattened: Cell<usize>,
    /// An upper bound of the builder's open elements (exact right after a count).
    open_bound: Cell<usize>,
    /// Whether `open_bound` is exact.
    exact: Cell<bool>,
    /// Elements attached at the depth limit and closed at once that Chromium would still
    /// hold open, innermost last: their end tags are matched here.
    virtual_open: RefCell<Vec<LocalName>>,
    virtual_names: RefCell<HashMap<LocalName, usize>>,
    /// The builder's open elements when `virtual_open` was last empty: once fewer are open,
    /// an end tag has closed an element below them, and with it (in Chromium) them.
    virtual_base: Cell<usize>,
}

impl<'b> Filter<'b> {
    fn new(
        builder: TreeBuilder<Handle, BoundedSink>,
        budget: &'b dyn Budget,
        queue: &'b BufferQueue,
        text: &'b str,
    ) -> Self {
        Filter {
            builder,
            budget,
            queue,
            text,
            fed_end: Cell::new(0),
            last_end: Cell::new(0),
            // The corpus's pages have about one located element per 450 bytes: room for one
            // per 200 at once spares growing the table step by step on all but the densest.
            spans: RefCell::new(Spans::with_capacity_and_hasher(text.len() / 200, Default::default())),
            stopped: Cell::new(None),
            tokens: Cell::new(0),
            flattened: Cell::new(0),
            open_bound: Cell::new(0),
            exact: Cell::new(true),
            virtual_open: RefCell::new(Vec::new()),
            virtual_names: RefCell::new(HashMap::new()),
            virtual_base: Cell::new(0),
        }
    }

    /// Asks the budget and the node count whether to stop; remembers the answer.
    fn check_stop(&self) -> bool {
        if self.stopped.get().is_some() {
            return true;
        }
        let stop = if self.builder.sink.nodes.get() >= MAX_NODES {
            Some(Stop::Nodes)
        } else if self.budget.exhausted() {
            Some(Stop::Budget)
        } else {
            None
        };
        self.stopped.set(stop);
        stop.is_some()
    }

    /// Counts the builder's open elements and other held handles.
    fn count(&self) -> Held {
        let sink = &self.builder.sink;
        sink.probing.set(true);
        // The tree builder names its adjusted current node (for a document, the current
        // node) to answer this; the sink keeps the handle.
        let _ = self.builder.adjusted_current_node_present_but_not_in_html_namespace();
        sink.probing.set(false);
        let Some(current) = sink.probed.borrow_mut().take() else {
            return Held { open: 0, others: 0 };
        };
        let counter = StackCounter { current, seen: Cell::new(0), open: Cell::new(None) };
        self.builder.trace_handles(&counter);
        let open = counter.open.get().unwrap_or(0);
        let held = Held { open, others: counter.seen.get().saturating_sub(open + 1) };
        self.open_bound.set(held.open);
        self.exact.set(true);
        if held.open < self.virtual_base.get() {
            self.virtual_open.borrow_mut().clear();
            self.virtual_names.borrow_mut().clear();
        }
        held
    }

    /// Open elements as Chromium would count them: the builder's and the flattened ones.
    fn chromium_open(&self) -> usize {
        let virtual_open = self.virtual_open.borrow().len();
        if self.open_bound.get() + virtual_open > MAX_OPEN_ELEMENTS && !self.exact.get() {
            self.count();
        }
        self.open_bound.get() + self.virtual_open.borrow().len()
    }

    fn start_tag(&self, tag: Tag, line: u64) -> TokenSinkResult<Handle> {
        let sink = &self.builder.sink;
        let before = sink.elements.get();
        // No stack can be deeper than the elements built so far.
        let deep = before >= MAX_OPEN_ELEMENTS && self.chromium_open() > MAX_OPEN_ELEMENTS;
        let crowded = !deep
            && before >= MAX_FORMATTING
            && is_capped_formatting(&tag.name)
            && self.count().others >= MAX_FORMATTING;
        if !deep && !crowded {
            let result = self.builder.process_token(TagToken(tag), line);
            self.grew(before);
            return result;
        }
        let name = tag.name.clone();
        *sink.last_created.borrow_mut() = None;
        sink.attach_to_parent.set(deep);
        let result = self.builder.process_token(TagToken(tag), line);
        sink.attach_to_parent.set(false);
        let mut created = sink.elements.get() - before;
        // Close the element at once, unless the builder did not keep it open (void elements,
        // self-closing foreign ones, start tags it ignored) or the tokenizer now reads its
        // raw text (`<script>`, `<textarea>`: no markup inside, they end with their own tag).
        let element = sink.last_created.borrow_mut().take();
        let raw_text = !matches!(result, TokenSinkResult::Continue);
        if let (Some(element), false) = (element, raw_text) {
            if self.is_current(&element) {
                let end = Tag { kind: EndTag, name: name.clone(), self_closing: false, attrs: Vec::new() };
                let _ = self.builder.process_token(TagToken(end), line);
                created -= 1;
                self.flattened.set(self.flattened.get() + 1);
                if self.virtual_open.borrow().is_empty() {
                    self.virtual_base.set(self.open_bound.get());
                }
                self.virtual_open.borrow_mut().push(name.clone());
                *self.virtual_names.borrow_mut().entry(name).or_insert(0) += 1;
            }
        }
        // The usual case (one element in and out again) leaves the count as it was; anything
        // else (formatting elements re-opened, a raw-text element left open) raises it.
        if created > 0 {
            self.open_bound.set(self.open_bound.get() + created);
            self.exact.set(false);
        }
        result
    }

    /// The offset of the `<` of a start tag that ended at `end`: text before it was emitted as
    /// tokens of its own, so it is the first `<` after the previous token, followed by a
    /// letter; failing that (input the tokenizer took back and gave again), the last `<`
    /// before `end` followed by a letter.
    /// After a `<noscript>` of the head built the body (as a parser without scripts does), a
    /// browser running scripts still reads the head, up to the first start tag the head cannot
    /// hold (the page walk reads it so too): that tag ended the head, unless the page closed
    /// it first.
    fn note_after_head_noscript(&self, token: &Token, line: u64) {
        let sink = &self.builder.sink;
        if sink.in_head_noscript.get() {
            return;
        }
        let TagToken(tag) = token else { return };
        let closes = closes_head(tag);
        let ends = tag.kind == StartTag && !is_head_element(&tag.name);
        if ends && !closes {
            let line = u32::try_from(line.max(1)).unwrap_or(u32::MAX);
            *sink.head_ended_by.borrow_mut() = Some((format!("<{}>", tag.name), line));
        }
        if closes || ends {
            sink.head_noscript_body.set(false);
        }
    }

    /// Keeps what the token is, until the body is built, for [`Parsed::head_ended_by`].
    fn note_current(&self, token: &Token) {
        let sink = &self.builder.sink;
        let current = match token {
            TagToken(tag) => {
                if closes_head(tag) {
                    sink.head_closed.set(true);
                }
                let name = match tag.kind {
                    StartTag => format!("<{}>", tag.name),
                    EndTag => format!("</{}>", tag.name),
                };
                Some((name, 0))
            }
            CharacterTokens(text) => {
                // A text token's line is where it ends: the text starts that many breaks before.
                let start = text.len() - text.trim_start().len();
                let breaks = text[start..].bytes().filter(|&b| b == b'\n').count() as u64;
                let text = text.trim();
                let shown: String = text.chars().take(40).collect();
                let more = if shown.len() < text.len() { "…" } else { "" };
                Some((format!("the text \"{shown}{more}\""), breaks))
            }
            _ => None,
        };
        *sink.current.borrow_mut() = current;
    }

    fn tag_start(&self, previous_end: usize, end: usize) -> usize {
        let bytes = self.text.as_bytes();
        let end = end.min(bytes.len());
        let opens_tag = |i: usize| bytes[i] == b'<' && bytes.get(i + 1).is_some_and(u8::is_ascii_alphabetic);
        if previous_end < end {
            if let Some(i) = bytes[previous_end..end].iter().position(|&b| b == b'<') {
                if opens_tag(previous_end + i) {
                    return previous_end + i;
                }
            }
        }
        // Bounded: a start tag longer than this is a page of its own.
        (end.saturating_sub(1 << 16)..end).rev().find(|&i| opens_tag(i)).unwrap_or(end)
    }

    /// Whether `node` is the builder's current node.
    fn is_current(&self, node: &Handle) -> bool {
        let sink = &self.builder.sink;
        sink.probing.set(true);
        let _ = self.builder.adjusted_current_node_present_but_not_in_html_namespace();
        sink.probing.set(false);
        sink.probed.borrow_mut().take().is_some_and(|current| std::rc::Rc::ptr_eq(&current, node))
    }

    /// After a token went to the builder as it was: the open elements may have changed.
    fn grew(&self, elements_before: usize) {
        let created = self.builder.sink.elements.get() - elements_before;
        self.open_bound.set(self.open_bound.get() + created);
        self.exact.set(false);
    }

    /// An end tag of a flattened element closes it (and the flattened ones inside it) here.
    fn end_tag_matches_flattened(&self, name: &LocalName) -> bool {
        let mut names = self.virtual_names.borrow_mut();
        if names.get(name).copied().unwrap_or(0) == 0 {
            return false;
        }
        let mut open = self.virtual_open.borrow_mut();
        while let Some(top) = open.pop() {
            if let Some(n) = names.get_mut(&top) {
                *n -= 1;
            }
            if top == *name {
                break;
            }
        }
        true
    }
}

/// Formatting elements whose list can grow without bound (`<a>` cannot: a new one closes the
/// previous one).
fn is_capped_formatting(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("b")
            | local_name!("big")
            | local_name!("code")
            | local_name!("em")
            | local_name!("font")
            | local_name!("i")
            | local_name!("nobr")
            | local_name!("s")
            | local_name!("small")
            | local_name!("strike")
            | local_name!("strong")
            | local_name!("tt")
            | local_name!("u")
    )
}

impl TokenSink for Filter<'_> {
    type Handle = Handle;

    fn process_token(&self, token: Token, line: u64) -> TokenSinkResult<Handle> {
        if self.stopped.get().is_some() {
            // The rest of the input is dropped; the end of input still closes the document.
            return match token {
                Token::EOFToken => self.builder.process_token(token, line),
                _ => TokenSinkResult::Continue,
            };
        }
        let tokens = self.tokens.get() + 1;
        self.tokens.set(tokens);
        if tokens % CHECK_EVERY_TOKENS == 0 && self.check_stop() {
            return TokenSinkResult::Continue;
        }
        let sink = &self.builder.sink;
        if !sink.body_built.get() {
            self.note_current(&token);
        } else if sink.head_noscript_body.get() {
            self.note_after_head_noscript(&token, line);
        }
        if let TagToken(tag) = &token {
            if tag.name == local_name!("noscript") {
                let sink = &self.builder.sink;
                if tag.kind == StartTag && !sink.body_built.get() {
                    sink.in_head_noscript.set(true);
                } else if tag.kind == EndTag {
                    sink.in_head_noscript.set(false);
                }
            }
        }
        // Where this token ended in the text: past what the tokenizer has taken from its
        // input (it takes one chunk at a time, and a start tag is emitted on its `>`).
        let rest = self.queue.peek_front_chunk_mut().map_or(0, |chunk| chunk.len());
        let end = self.fed_end.get().saturating_sub(rest);
        let previous_end = self.last_end.replace(end);
        match token {
            TagToken(tag) if tag.kind == StartTag => {
                self.builder.sink.last_located.set(0);
                let result = self.start_tag(tag, line);
                let element = self.builder.sink.last_located.replace(0);
                if element != 0 {
                    let start = self.tag_start(previous_end, end);
                    let span = (
                        u32::try_from(start).unwrap_or(u32::MAX),
                        u32::try_from(end).unwrap_or(u32::MAX),
                        u32::try_from(line).unwrap_or(u32::MAX),
                    );
                    self.spans.borrow_mut().insert(element, span);
                }
                result
            }
            TagToken(tag) if tag.kind == EndTag && self.end_tag_matches_flattened(&tag.name) => {
                TokenSinkResult::Continue
            }
            token => {
                let before = self.builder.sink.elements.get();
                let structural = matches!(token, TagToken(_));
                let result = self.builder.process_token(token, line);
                let created = self.builder.sink.elements.get() - before;
                if structural || created > 0 {
                    // Elements closed or re-opened: count again when it matters.
                    self.grew(before);
                }
                result
            }
        }
    }

    fn end(&self) {
        self.builder.end()
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.builder.adjusted_current_node_present_but_not_in_html_namespace()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use html5ever::serialize::{serialize, SerializeOpts, TraversalScope};
    use markup5ever_rcdom::{NodeData, SerializableHandle};

    fn bounded(html: &str) -> Parsed {
        parse(StrTendril::from(html), &Unlimited)
    }

    fn serialized(handle: &Handle) -> String {
        let mut out = Vec::new();
        let opts = SerializeOpts { traversal_scope: TraversalScope::ChildrenOnly(None), ..SerializeOpts::default() };
        serialize(&mut out, &SerializableHandle::from(handle.clone()), opts).expect("serialises");
        String::from_utf8(out).expect("utf-8")
    }

    /// The element with `id`, found without recursion.
    fn by_id(root: &Handle, id: &str) -> Option<Handle> {
        let mut stack = vec![root.clone()];
        while let Some(node) = stack.pop() {
            if let NodeData::Element { attrs, .. } = &node.data {
                if attrs.borrow().iter().any(|a| &*a.name.local == "id" && &*a.value == id) {
                    return Some(node);
                }
            }
            stack.extend(node.children.borrow().iter().cloned());
        }
        None
    }

    fn depth(node: &Handle) -> usize {
        let mut depth = 0;
        let mut at = parent_of(node);
        while let Some(parent) = at {
            depth += 1;
            at = parent_of(&parent);
        }
        depth
    }

    fn nested_divs(n: usize) -> String {
        (1..=n).map(|i| format!("<div id=d{i}>")).collect()
    }

    /// The same tree as html5ever's own driver: every fixture page of the crate, and, in the
    /// repository, the fixture sites and the corpus pages when `../shared` is beside it. The
    /// limits never touch real markup.
    #[test]
    fn real_pages_parse_exactly_as_html5ever_parses_them() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut pages = Vec::new();
        for dir in ["tests/fixtures", "../../fixtures/sites", "../../../shared/corpus/pages"] {
            let mut stack = vec![root.join(dir)];
            while let Some(path) = stack.pop() {
                if path.is_dir() {
                    stack.extend(std::fs::read_dir(&path).into_iter().flatten().flatten().map(|e| e.path()));
                } else if path.extension().is_some_and(|e| e == "html") {
                    pages.push(path);
                }
            }
        }
        assert!(pages.len() > 100, "fixture pages not found under {}", root.display());
        // The one fixture written to pass the limit.
        pages.retain(|p| !p.ends_with("html-too-complex/fail.html"));
        for path in &pages {
            let bytes = std::fs::read(path).expect("readable");
            let (text, _) = crate::charset::decode(&bytes, None);
            let ours = bounded(&text);
            assert_eq!(ours.analysis.flattened_elements, 0, "{}", path.display());
            assert!(ours.analysis.is_complete(), "{}", path.display());
            let theirs = parse_unbounded(StrTendril::from(text));
            assert!(
                serialized(&ours.dom.document) == serialized(&theirs.document),
                "{} parses differently within the limits",
                path.display()
            );
            assert_eq!(ours.parse_errors, theirs.errors.borrow().len(), "{}", path.display());
        }
    }

    /// Chromium: past 512 open elements, a new element goes beside the deepest one. With
    /// `<html>` at level 1 and `<body>` at 2, `<div>` number 511 is at level 513 and so are
    /// all that follow, side by side.
    #[test]
    fn nesting_stops_at_chromiums_depth() {
        let parsed = bounded(&nested_divs(1000));
        let doc = &parsed.dom.document;
        let d510 = by_id(doc, "d510").unwrap();
        let d511 = by_id(doc, "d511").unwrap();
        let d512 = by_id(doc, "d512").unwrap();
        let d1000 = by_id(doc, "d1000").unwrap();
        assert_eq!(depth(&d511), 513);
        assert!(std::rc::Rc::ptr_eq(&parent_of(&d511).unwrap(), &d510));
        assert!(std::rc::Rc::ptr_eq(&parent_of(&d512).unwrap(), &d510), "d512 is a sibling of d511");
        assert!(std::rc::Rc::ptr_eq(&parent_of(&d1000).unwrap(), &d510));
        assert_eq!(parsed.analysis.flattened_elements, 1000 - 511);
        // 511 nested under <body>, the rest side by side.
        assert_eq!(d510.children.borrow().len(), 1000 - 510);
    }

    /// End tags of elements attached at the limit close them (as they close Chromium's still
    /// open elements), not the real elements below: the next element lands where Chromium
    /// puts it.
    #[test]
    fn end_tags_of_flattened_elements_are_matched_with_them() {
        // 520 opened, 10 closed: 510 stay open, so <p> goes inside the 510th.
        let html = format!("{}{}<p id=p>after</p>", nested_divs(520), "</div>".repeat(10));
        let parsed = bounded(&html);
        let p = by_id(&parsed.dom.document, "p").unwrap();
        let d510 = by_id(&parsed.dom.document, "d510").unwrap();
        assert!(std::rc::Rc::ptr_eq(&parent_of(&p).unwrap(), &d510));
        // And all closed: the next element is a child of <body>.
        let html = format!("{}{}<p id=p>after</p>", nested_divs(600), "</div>".repeat(600));
        let parsed = bounded(&html);
        let p = by_id(&parsed.dom.document, "p").unwrap();
        assert_eq!(depth(&p), 3, "html > body > p");
    }

    #[test]
    fn raw_text_and_void_elements_past_the_limit_keep_their_content() {
        let html =
            format!("{}<script>if (a < b) {{ x(); }}</script><img id=i src=a.png><p id=p>text</p>", nested_divs(600));
        let parsed = bounded(&html);
        let doc = &parsed.dom.document;
        assert!(by_id(doc, "i").is_some());
        let p = by_id(doc, "p").unwrap();
        assert_eq!(depth(&p), 513);
        let scripts = serialized(doc);
        assert!(scripts.contains("<script>if (a < b) { x(); }</script>"), "script text stays inside it");
    }

    #[test]
    fn misnested_formatting_elements_stay_bounded() {
        let html = "<p>".to_string() + &(0..2000).map(|i| format!("<b id=b{i}>x</p><p>")).collect::<String>();
        let parsed = bounded(&html);
        assert!(parsed.analysis.flattened_elements > 0);
        // Without the cap every <p> re-opens all earlier <b>: 2,000 x 2,000 / 2 elements.
        assert!(parsed.dom.document.children.borrow().len() == 1);
        let mut elements = 0;
        let mut stack = vec![parsed.dom.document.clone()];
        while let Some(node) = stack.pop() {
            elements += usize::from(matches!(node.data, NodeData::Element { .. }));
            stack.extend(node.children.borrow().iter().cloned());
        }
        assert!(elements < 2000 * (MAX_FORMATTING + 3), "{elements} elements");
    }

    #[test]
    fn a_budget_stops_parsing_and_keeps_what_was_parsed() {
        let html = format!("<title>Kept</title>{}", "<p>word</p>".repeat(20_000));
        let asked = Cell::new(0u32);
        let budget = || {
            asked.set(asked.get() + 1);
            asked.get() > 3
        };
        let parsed = parse(StrTendril::from(html.as_str()), &budget);
        assert_eq!(parsed.analysis.stopped, Some(Stop::Budget));
        assert!(parsed.analysis.parsed_bytes < parsed.analysis.total_bytes);
        assert_eq!(parsed.analysis.total_bytes, html.len());
        assert!(serialized(&parsed.dom.document).contains("<title>Kept</title>"));
        assert!(asked.get() <= 5, "not asked again once stopped");
    }

    #[test]
    fn node_count_is_capped() {
        let html = "<i></i>".repeat(MAX_NODES + 1000);
        let parsed = bounded(&html);
        assert_eq!(parsed.analysis.stopped, Some(Stop::Nodes), "{:?}", parsed.analysis);
        assert!(parsed.analysis.parsed_bytes < html.len());
    }
}
