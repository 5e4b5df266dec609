//! A long scripted session of mixed plan operations, through the model and
//! through the CLI, checked against the plan model's invariants after each.

use std::collections::BTreeSet;

use serde_json::Value;
use vaultspec_test_support::TestVault;
use vaultspec_vault::hash::blob_oid;
use vaultspec_vault::plan::{
    Kind, Plan, PlanOp, WriteOptions, mutate_plan, parse_plan, serialise_plan,
};
use vaultspec_vault::{Date, MemStorage, Storage};

use super::{L2, l2, read, text, vaultspec};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        (!items.is_empty()).then(|| &items[(self.next() % items.len() as u64) as usize])
    }
}

/// One random operation on `text` (an L2 or L3 plan) as CLI words and as a
/// model op, picking ids that exist most of the time and ones that do not
/// now and then.
fn random_op(rng: &mut Rng, text: &str, n: usize) -> (Vec<String>, PlanOp) {
    let plan = parse_plan(text).expect("the session plan parses");
    let mut steps: Vec<String> = plan.steps.iter().map(|s| s.id.clone()).collect();
    let mut phases: Vec<String> = plan.phases.iter().map(|p| p.id.clone()).collect();
    // A new Step needs a Phase from L2 up.
    let home = rng.pick(&phases).cloned();
    if rng.next().is_multiple_of(10) {
        steps.push("S99".into());
        phases.push("P99".into());
    }
    let s = |v: &str| v.to_string();
    let step = rng.pick(&steps).cloned();
    let phase = rng.pick(&phases).cloned();
    let other = rng.pick(&steps).cloned();
    let words = |verb: &[&str], rest: &[&str]| -> Vec<String> {
        verb.iter().chain(rest).map(|w| w.to_string()).collect()
    };
    match (rng.next() % 12, step, phase, other) {
        (0, Some(st), _, _) => (
            words(&["step", "check"], &[&st]),
            PlanOp::StepCheck { step: st },
        ),
        (1, Some(st), _, _) => (
            words(&["step", "uncheck"], &[&st]),
            PlanOp::StepUncheck { step: st },
        ),
        (2, Some(st), _, _) => (
            words(&["step", "toggle"], &[&st]),
            PlanOp::StepToggle { step: st },
        ),
        (3, Some(_), _, Some(o)) => (
            words(
                &["step", "insert"],
                &[
                    "--after",
                    &o,
                    "--action",
                    &format!("inserted {n}"),
                    "--scope",
                    "src/i.rs",
                ],
            ),
            PlanOp::StepInsert {
                anchor: vaultspec_vault::plan::Anchor::After(o),
                action: format!("inserted {n}"),
                scope: s("src/i.rs"),
            },
        ),
        (4, Some(st), _, _) => (
            words(
                &["step", "edit"],
                &[&st, "--action", &format!("edited {n}")],
            ),
            PlanOp::StepEdit {
                step: st,
                action: Some(format!("edited {n}")),
                scope: None,
            },
        ),
        (5, Some(st), Some(p), _) => (
            words(&["step", "move"], &[&st, "--to-phase", &p]),
            PlanOp::StepMove {
                step: st,
                to_phase: Some(p),
                anchor: None,
            },
        ),
        (6, Some(st), _, _) if steps.len() > 3 => (
            words(&["step", "remove"], &[&st]),
            PlanOp::StepRemove { step: st },
        ),
        (7, _, Some(p), _) if rng.next().is_multiple_of(3) && phases.len() > 2 => (
            words(&["phase", "remove"], &[&p]),
            PlanOp::PhaseRemove { phase: p },
        ),
        (8, _, Some(p), _) => (
            words(&["phase", "edit"], &[&p, "--title", &format!("phase {n}")]),
            PlanOp::PhaseEdit {
                phase: p,
                title: Some(format!("phase {n}")),
                intent: None,
            },
        ),
        (9, _, Some(p), _) if rng.next().is_multiple_of(2) => (
            words(
                &["phase", "insert"],
                &[
                    "--after",
                    &p,
                    "--title",
                    &format!("new {n}"),
                    "--intent",
                    "More work.",
                ],
            ),
            PlanOp::PhaseInsert {
                anchor: vaultspec_vault::plan::Anchor::After(p),
                title: format!("new {n}"),
                intent: s("More work."),
            },
        ),
        (10, _, Some(_), _) => (
            words(
                &["phase", "add"],
                &["--title", &format!("added {n}"), "--intent", "Later work."],
            ),
            PlanOp::PhaseAdd {
                title: format!("added {n}"),
                intent: s("Later work."),
                wave: None,
            },
        ),
        _ => {
            let mut flags = vec![
                "--action".to_string(),
                format!("added {n}"),
                s("--scope"),
                s("src/a.rs"),
            ];
            if let Some(p) = &home {
                flags.extend([s("--phase"), p.clone()]);
            }
            let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
            (
                words(&["step", "add"], &flags),
                PlanOp::StepAdd {
                    action: format!("added {n}"),
                    scope: s("src/a.rs"),
                    phase: home,
                },
            )
        }
    }
}

/// Every id ever seen in the session, by kind.
#[derive(Default)]
struct Seen {
    ids: [BTreeSet<String>; 3],
}

/// The invariants that must hold after every operation: the file re-parses
/// to the same plan, completion matches the boxes, a live id is unique and
/// was never retired, and a retired id never comes back.
fn check_invariants(before: &str, after: &str, expected: Option<&Plan>, seen: &mut Seen, at: &str) {
    let plan = parse_plan(after)
        .unwrap_or_else(|e| panic!("{at}: the plan does not re-parse: {e}\n{after}"));
    let again = parse_plan(&serialise_plan(&plan, false)).expect("the serialised plan parses");
    assert_eq!(
        again.outline(),
        plan.outline(),
        "{at}: the plan does not survive a rewrite"
    );
    if let Some(model) = expected {
        assert_eq!(
            plan.outline(),
            model.outline(),
            "{at}: the file does not re-read to the plan the model wrote"
        );
    }
    let old = parse_plan(before).expect("the previous plan parsed");
    for (i, kind) in [Kind::Wave, Kind::Phase, Kind::Step]
        .into_iter()
        .enumerate()
    {
        let live: Vec<&str> = plan.live_ids(kind);
        let unique: BTreeSet<&str> = live.iter().copied().collect();
        assert_eq!(
            unique.len(),
            live.len(),
            "{at}: duplicate live {kind} ids {live:?}"
        );
        let old_live: BTreeSet<&str> = old.live_ids(kind).into_iter().collect();
        for id in &live {
            assert!(
                !plan.retired.of(kind).contains(*id),
                "{at}: {kind} `{id}` is live and retired"
            );
            if !old_live.contains(id) {
                assert!(
                    !seen.ids[i].contains(*id),
                    "{at}: {kind} id `{id}` was reused"
                );
            }
        }
        for id in old.retired.of(kind) {
            assert!(
                plan.retired.of(kind).contains(id),
                "{at}: retired {kind} `{id}` was forgotten"
            );
        }
        seen.ids[i].extend(live.iter().map(|s| s.to_string()));
        seen.ids[i].extend(plan.retired.of(kind).iter().cloned());
    }
    let checked = after.lines().filter(|l| l.starts_with("- [x]")).count();
    assert_eq!(
        plan.steps_completed(),
        checked,
        "{at}: completion disagrees with the boxes"
    );
    assert_eq!(
        plan.steps.len(),
        after.lines().filter(|l| l.starts_with("- [")).count(),
        "{at}: step count"
    );
}

/// 200 mixed operations through the model, then 60 through the CLI, on one
/// L2 plan; refused operations must leave the file byte-identical.
#[test]
fn a_long_session_of_mixed_operations_keeps_the_plan_sound() {
    let today = Date::new(2026, 11, 30).unwrap();
    let storage = MemStorage::new();
    storage.insert(L2, l2());
    let mut rng = Rng(0x5eed_cafe_f00d_1234);
    let mut seen = Seen::default();
    let start = l2();
    check_invariants(&start, &start, None, &mut seen, "start");
    let mut applied = 0;
    for n in 0..200 {
        let before = String::from_utf8(storage.read(L2).unwrap()).unwrap();
        let (_, op) = random_op(&mut rng, &before, n);
        let result = mutate_plan(&storage, L2, &op, &WriteOptions::new(today));
        let after = String::from_utf8(storage.read(L2).unwrap()).unwrap();
        let written = match result {
            Ok(m) => {
                applied += 1;
                Some(m.plan)
            }
            Err(_) => {
                assert_eq!(
                    after, before,
                    "op {n} {op:?} was refused but changed the file"
                );
                None
            }
        };
        check_invariants(
            &before,
            &after,
            written.as_ref(),
            &mut seen,
            &format!("model op {n} {op:?}"),
        );
    }
    assert!(applied > 100, "most operations apply ({applied} of 200)");

    let vault = TestVault::new();
    vault.write(L2, &l2());
    let mut seen = Seen::default();
    for n in 0..60 {
        let before = read(&vault, L2);
        let (words, op) = random_op(&mut rng, &before, n);
        let mut args = vec!["vault".to_string(), "plan".to_string()];
        args.push(words[0].clone());
        args.push(words[1].clone());
        args.push("mid-work".to_string());
        args.extend(words[2..].iter().cloned());
        args.push("--json".to_string());
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = vaultspec(vault.root(), &refs);
        let after = read(&vault, L2);
        let reply: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!("cli op {n} {args:?}: no JSON ({e}): {}", text(&out.stderr))
        });
        if out.status.success() {
            assert_eq!(
                reply["data"]["blob_hash"],
                blob_oid(after.as_bytes()),
                "cli op {n} {op:?}: {reply}"
            );
        } else {
            assert_eq!(
                after, before,
                "cli op {n} {args:?} was refused but changed the file: {reply}"
            );
        }
        check_invariants(
            &before,
            &after,
            None,
            &mut seen,
            &format!("cli op {n} {args:?}"),
        );
    }
}
