//! Generated pages of hostile shapes: what a parser that follows the HTML standard to the
//! letter spends superlinear time or memory on. Shared by the bound test
//! (`crates/server/tests/it/hostile.rs`) and the example that times them (`examples/hostile.rs`).

/// One shape: a name and a generator that writes a page of about `size` bytes.
pub struct Shape {
    pub name: &'static str,
    pub generate: fn(usize) -> String,
}

fn repeat_to(size: usize, head: &str, unit: impl Fn(usize) -> String, tail: &str) -> String {
    let mut page = String::with_capacity(size + 256);
    page.push_str(head);
    let mut i = 0;
    while page.len() + tail.len() < size {
        page.push_str(&unit(i));
        i += 1;
    }
    page.push_str(tail);
    page
}

const HEAD: &str = "<!doctype html><html lang=en><head><title>Hostile shape</title>\
<meta name=description content='A page generated to cost a parser as much as it can.'></head><body><h1>Hostile</h1>";

/// Every shape of the corpus.
pub const SHAPES: &[Shape] = &[
    Shape { name: "deep-div", generate: |n| repeat_to(n, HEAD, |_| "<div>".into(), "") },
    Shape {
        name: "unclosed-mixed",
        generate: |n| repeat_to(n, HEAD, |_| "<div><span><section><article><em><a href=/x>".into(), ""),
    },
    Shape {
        name: "misnested-formatting",
        generate: |n| repeat_to(n, HEAD, |_| "<b><i><u><s><em><strong>".into(), "</p>"),
    },
    Shape {
        name: "misnested-formatting-per-round",
        generate: |n| repeat_to(n, HEAD, |_| "<b><i><u><s><em><strong></p>".into(), ""),
    },
    Shape { name: "reopened-formatting", generate: |n| repeat_to(n, HEAD, |i| format!("<p><b id=b{i}>x</p>"), "") },
    Shape { name: "distinct-font", generate: |n| repeat_to(n, HEAD, |i| format!("<font color=#{i:06x}>w "), "") },
    Shape {
        name: "many-attributes",
        generate: |n| repeat_to(n, &format!("{HEAD}<div"), |i| format!(" a{i}"), ">text</div>"),
    },
    Shape {
        name: "duplicate-attributes",
        generate: |n| repeat_to(n, &format!("{HEAD}<div"), |i| format!(" a{}=v", i % 50), ">text</div>"),
    },
    Shape { name: "huge-text", generate: |n| repeat_to(n, &format!("{HEAD}<p>"), |_| "word ".into(), "</p>") },
    Shape {
        name: "huge-attribute-value",
        generate: |n| repeat_to(n, &format!("{HEAD}<div title=\""), |_| "value ".into(), "\">x</div>"),
    },
    Shape { name: "deep-table", generate: |n| repeat_to(n, HEAD, |_| "<table><tr><td>".into(), "") },
    Shape { name: "deep-list", generate: |n| repeat_to(n, HEAD, |_| "<ul><li>".into(), "") },
    Shape { name: "many-comments", generate: |n| repeat_to(n, HEAD, |_| "<!-- c -->".into(), "") },
    Shape { name: "huge-comment", generate: |n| repeat_to(n, &format!("{HEAD}<!--"), |_| "comment ".into(), "-->") },
    Shape { name: "template-nesting", generate: |n| repeat_to(n, HEAD, |_| "<template>".into(), "") },
    Shape { name: "deep-svg", generate: |n| repeat_to(n, &format!("{HEAD}<svg>"), |_| "<g>".into(), "") },
    Shape {
        name: "nested-headings-then-text",
        generate: |n| {
            let mut page = String::from(HEAD);
            for _ in 0..600 {
                page.push_str("<h2><div>");
            }
            repeat_to(n, &page, |_| "heading text ".into(), "")
        },
    },
    Shape { name: "flat-links", generate: |n| repeat_to(n, HEAD, |i| format!("<a href=/p{i}>link {i}</a>"), "") },
    Shape { name: "flat-empty-elements", generate: |n| repeat_to(n, HEAD, |_| "<i></i>".into(), "") },
    Shape { name: "self-closing-divs", generate: |n| repeat_to(n, HEAD, |_| "<div/>".into(), "") },
    // Every item names one large block with `itemref`: without a bound, items times block.
    Shape {
        name: "itemref-fan-out",
        generate: |n| {
            let shared = format!("{HEAD}<div id=s>{}</div>", "<span itemprop=description>d</span>".repeat(2000));
            repeat_to(n, &shared, |_| "<div itemscope itemtype=https://schema.org/Thing itemref=s></div>".into(), "")
        },
    },
    // JSON-LD blocks of 100 products each, to the page's size: parsing, the graph and the
    // checks grow with the items until the reader's bounds (bytes parsed, items checked).
    Shape {
        name: "json-ld-flood",
        generate: |n| {
            let product = |i: usize| {
                format!(
                    "{{\"@context\":\"https://schema.org\",\"@type\":\"Product\",\"name\":\"Chair {i}\",\
                     \"offers\":{{\"@type\":\"Offer\",\"price\":\"49.50\",\"priceCurrency\":\"EUR\"}}}}"
                )
            };
            let block = |b: usize| {
                let items: Vec<String> = (b * 100..(b + 1) * 100).map(product).collect();
                format!("<script type=\"application/ld+json\">[{}]</script>", items.join(","))
            };
            repeat_to(n, HEAD, block, "")
        },
    },
    // Microdata products to the page's size, each with a nested offer.
    Shape {
        name: "microdata-flood",
        generate: |n| {
            let item = |i| {
                format!(
                    "<div itemscope itemtype=https://schema.org/Product><span itemprop=name>Chair {i}</span>\
                     <div itemprop=offers itemscope itemtype=https://schema.org/Offer><meta itemprop=price content=49.50>\
                     <meta itemprop=priceCurrency content=EUR></div></div>"
                )
            };
            repeat_to(n, HEAD, item, "")
        },
    },
];

/// CPU time of the calling thread: what the analysis budget counts, unaffected by what the
/// other threads of the machine do.
#[allow(dead_code)] // Used by the example, not by every test that includes this file.
pub fn thread_cpu() -> std::time::Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    std::time::Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}
