//! What must hold for every kind of bad file: each reader answers with the
//! rest of the vault and names the bad file, and `check all --fix` leaves
//! every file that refers to it byte for byte.

use std::collections::BTreeMap;

use vaultspec_vault::Storage;
use vaultspec_vault::checks::{Check, Options, run_all};
use vaultspec_vault::graph::{DocSelect, FindQuery, load_graph, read_corpus};
use vaultspec_vault::search::{SearchIndex, SearchQuery};

use super::vault::{ADR, INDEX, OTHER, today};

/// How the bad file must show.
pub struct Bad<'a> {
    /// Its path.
    pub path: &'a str,
    /// The checker that reports it.
    pub named_by: Check,
    /// Text its listing row's `problem` must contain (`None`: no problem,
    /// the file is a sound document with a bad name).
    pub problem: Option<&'a str>,
}

/// `vault list`, `find`, `search`, `status` and `check all` over `storage`.
pub fn readers_answer(storage: &dyn Storage, bad: &Bad<'_>) {
    let graph = load_graph(storage).expect("one bad file never fails the load");
    let rows = graph.list_documents(DocSelect::All, None, None);
    for sound in [ADR, INDEX, OTHER] {
        assert!(rows.iter().any(|r| r.path == sound), "{sound} is listed");
    }
    let row = rows
        .iter()
        .find(|r| r.path == bad.path)
        .unwrap_or_else(|| panic!("{} is listed", bad.path));
    let problem = serde_json::to_value(row).expect("a row serialises")["problem"].clone();
    match bad.problem {
        Some(text) => assert!(
            problem.as_str().is_some_and(|p| p.contains(text)),
            "the row of {} carries its problem ({text}): {problem}",
            bad.path
        ),
        None => assert!(problem.is_null(), "{problem}"),
    }
    assert_eq!(
        graph.stats(DocSelect::All, None, None).total_docs,
        4,
        "the bad file is counted"
    );

    let research = ["research".to_string()];
    let found = graph.find_documents(&FindQuery {
        types: &research,
        text: Some("note"),
        limit: 20,
        ..FindQuery::default()
    });
    assert!(
        found.iter().any(|r| r.path == bad.path),
        "find names {}",
        bad.path
    );

    let (docs, _) = read_corpus(storage).expect("search reads the vault");
    let index = SearchIndex::build(&docs);
    let query = SearchQuery {
        text: "marmalade",
        types: &[],
        feature: None,
        date: None,
        limit: 4,
    };
    let hits = index.search(&docs, &query);
    assert!(
        hits.iter().any(|h| h.path == OTHER),
        "search answers from the rest of the vault"
    );
    assert!(
        docs.iter().any(|d| d.path == bad.path),
        "search knows the bad file is there"
    );

    vaultspec_vault::status::rollup(storage, &graph, 10);

    let results = run_all(storage, &Options::check(today())).expect("check all runs");
    let named = results
        .iter()
        .filter(|r| r.check == bad.named_by)
        .flat_map(|r| &r.findings)
        .any(|f| f.path.as_deref() == Some(bad.path));
    assert!(
        named,
        "{} names {}: {results:#?}",
        bad.named_by.as_str(),
        bad.path
    );
    let dangling: Vec<_> = results
        .iter()
        .filter(|r| r.check == Check::Dangling)
        .flat_map(|r| &r.findings)
        .collect();
    assert!(
        dangling.is_empty(),
        "links to the bad file do not dangle: {dangling:#?}"
    );
    let ungrounded = results
        .iter()
        .flat_map(|r| &r.findings)
        .any(|f| f.path.as_deref() == Some(ADR) && f.message.contains("grounding"));
    assert!(
        !ungrounded,
        "the research note the ADR cites still grounds it"
    );
}

/// `check all --fix` over `storage` leaves `kept` files exactly as `before`.
pub fn fix_keeps(
    storage: &dyn Storage,
    before: &BTreeMap<String, Vec<u8>>,
    after: impl Fn() -> BTreeMap<String, Vec<u8>>,
    kept: &[&str],
) {
    run_all(storage, &Options::fix(today())).expect("check all --fix runs");
    let after = after();
    for path in kept {
        let was = String::from_utf8_lossy(&before[*path]);
        let now = after
            .get(*path)
            .map(|b| String::from_utf8_lossy(b).into_owned());
        assert_eq!(now.as_deref(), Some(&*was), "{path} is left byte for byte");
    }
}
