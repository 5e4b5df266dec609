//! Fuzzes the ledger row grammar and the append rules: no input panics, a
//! parsed row renders to a line that parses back to the same row, and
//! appending the same rows and notes twice changes nothing the second time
//! (for ledgers `log` accepts: no unclosed code fence).
#![no_main]

use libfuzzer_sys::fuzz_target;
use vaultspec_vault::ledger::{
    LedgerRow, Op, append_notes, append_rows, covered_steps, malformed_rows, parse_row,
    step_evidence, unclosed_fence,
};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for line in text.lines() {
        if let Some(row) = parse_row(line) {
            let rendered = row.render();
            assert_eq!(
                parse_row(&rendered).as_ref(),
                Some(&row),
                "row does not round-trip: {line:?}"
            );
        }
    }
    let _ = step_evidence(text);
    let _ = covered_steps(text);
    let _ = malformed_rows(text);
    // `log` refuses a ledger with an unclosed fence (everything after it is
    // code); the append rules are only promised for the others.
    if unclosed_fence(text).is_some() {
        return;
    }
    let rows = [
        LedgerRow::change("S01", Op::A, vec!["src/a.rs".into()]),
        LedgerRow::verify("S01", "cargo test", "pass"),
    ];
    if let Ok((once, _)) = append_rows(text, &rows) {
        let (twice, added) = append_rows(&once, &rows).expect("the section is still there");
        assert!(added.is_empty(), "second append added rows");
        assert_eq!(once, twice);
        let (n1, _) = append_notes(&once, &["- `S01` note".to_string()]);
        let (n2, k) = append_notes(&n1, &["- `S01` note".to_string()]);
        assert_eq!(k, 0);
        assert_eq!(n1, n2);
    }
});
