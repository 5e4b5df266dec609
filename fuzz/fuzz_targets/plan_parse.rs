//! Fuzzes the plan parser, serialiser and checks: no input panics; for text
//! without an unterminated comment or code fence (which swallow what the
//! serialiser writes after them) a plan that parses re-serialises to text
//! that parses to the same outline, and the text reaches a fixed point
//! within one round per block of prose (prose kept after a Phase without
//! Steps reads back as its intent).
#![no_main]

use libfuzzer_sys::fuzz_target;
use vaultspec_vault::plan::{check_plan, parse_plan, serialise_plan};

fn unterminated(text: &str) -> bool {
    let open = text.rfind("<!--");
    open.is_some_and(|o| !text[o..].contains("-->")) || text.contains("```") || text.contains("~~~")
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = check_plan(text);
    let Ok(plan) = parse_plan(text) else { return };
    let once = serialise_plan(&plan, false);
    let _ = check_plan(&once);
    if unterminated(text) {
        let _ = parse_plan(&once);
        return;
    }
    let Ok(first) = parse_plan(&once) else {
        panic!("serialised plan does not parse:\n{once}");
    };
    let mut cur = serialise_plan(&first, false);
    let mut settled = false;
    for _ in 0..=first.unknown.len() + 1 {
        let parsed = parse_plan(&cur).expect("serialised plan parses");
        assert_eq!(
            parsed.outline(),
            first.outline(),
            "outline changed on re-read"
        );
        let next = serialise_plan(&parsed, false);
        if next == cur {
            settled = true;
            break;
        }
        cur = next;
    }
    assert!(settled, "no fixed point");
});
