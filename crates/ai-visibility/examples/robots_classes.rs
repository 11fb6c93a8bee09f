//! How many sites of a directory of robots.txt files block which classes of AI crawlers at
//! `/`: `cargo run -p ai-visibility --example robots_classes -- DIR` (every `*.robots.txt`
//! file of DIR is one site).

use ai_visibility::{ai_crawlers, class_summary, ContentSignalReport, Purpose, Robots};

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: robots_classes DIR");
        std::process::exit(2);
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("a readable directory")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".robots.txt"))
        .collect();
    files.sort();
    let mut some = [0usize; 7];
    let mut all = [0usize; 7];
    let (mut signals, mut ignored_sites) = (0, 0);
    for path in &files {
        let robots = Robots::parse(&std::fs::read(path).expect("a readable file"));
        let crawlers = ai_crawlers(Some(&robots), "/");
        for (i, c) in class_summary(&crawlers).iter().enumerate() {
            some[i] += usize::from(c.blocked > 0);
            all[i] += usize::from(c.blocked == c.crawlers && c.crawlers > 0);
        }
        signals += usize::from(ContentSignalReport::new(Some(&robots)).present);
        ignored_sites += usize::from(crawlers.iter().any(|c| c.disallow_ignored));
    }
    println!("{} sites", files.len());
    println!("class\tblock some at /\tblock all at /");
    for (i, p) in Purpose::ALL.iter().enumerate() {
        println!("{}\t{}\t{}", p.key(), some[i], all[i]);
    }
    println!("sites with Content-Signal lines: {signals}");
    println!("sites blocking a crawler documented to ignore robots.txt: {ignored_sites}");
}
