//! `vault plan status`, `query`, `tier show` and `epic intent show`: the
//! verbs that read one plan and report on it.

use vaultspec_sdk::Workspace;
use vaultspec_sdk::output::status::UNCHANGED;
use vaultspec_sdk::output::usage;
use vaultspec_sdk::serde_json::json;
use vaultspec_sdk::vault::ledger::plan_status_with_evidence;
use vaultspec_sdk::vault::plan::{PlanError, StepQuery, query_steps};

use crate::exports::vaultspec::plan::{vault_plan, vault_plan_epic_intent, vault_plan_tier};
use vaultspec_verbs_shared::plan_common::{done, fail, open, resolve, schema};

pub fn status(options: vault_plan::StatusOptions, target: &str) -> u8 {
    let json = options.json;
    let sch = schema("status");
    let ws = Workspace::open();
    let path = match resolve(&ws, target) {
        Ok(p) => p,
        Err(err) => return fail(json, &sch, &err),
    };
    let st = match plan_status_with_evidence(&ws, &path) {
        Ok(s) => s,
        Err(err) => {
            return vaultspec_verbs_shared::plan_common::fail_message(json, &sch, &err.to_string());
        }
    };
    let data = vaultspec_sdk::serde_json::to_value(&st).unwrap_or_default();
    done(json, &sch, UNCHANGED, data, || {
        println!("{path}");
        println!(
            "  tier:       {}{}",
            st.tier,
            if st.legacy_tier_default {
                " (no `tier:`, read as L2)"
            } else {
                ""
            }
        );
        println!(
            "  waves:      {} ({} complete)",
            st.wave_count, st.waves_completed
        );
        println!(
            "  phases:     {} ({} complete)",
            st.phase_count, st.phases_completed
        );
        println!(
            "  steps:      {}/{} done ({}%)",
            st.steps_completed, st.step_count, st.completion_percent
        );
        println!(
            "  epic:       {}",
            if st.has_epic_intent { "yes" } else { "no" }
        );
        match &st.next_open_step {
            Some(s) => println!("  next open:  {s}"),
            None => println!("  next open:  none, every Step is checked"),
        }
        if !st.exec_missing_ids.is_empty() {
            println!(
                "  closed without ledger evidence: {}",
                st.exec_missing_ids.join(", ")
            );
        }
    })
}

pub fn query(options: vault_plan::QueryOptions, target: &str) -> u8 {
    let json = options.json;
    let sch = schema("query");
    if options.open && options.closed {
        return usage(json, "pass either `--open` or `--closed`, not both");
    }
    let ws = Workspace::open();
    let doc = match open(&ws, target) {
        Ok(d) => d,
        Err(err) => return fail(json, &sch, &err),
    };
    let plan = &doc.plan;
    for (flag, id, live) in [
        (
            "--phase",
            options.phase.as_deref(),
            plan.phases.iter().map(|p| p.id.clone()).collect::<Vec<_>>(),
        ),
        (
            "--wave",
            options.wave.as_deref(),
            plan.waves.iter().map(|w| w.id.clone()).collect(),
        ),
    ] {
        if let Some(id) = id.filter(|id| !live.iter().any(|l| l == id)) {
            let near = vaultspec_sdk::vault::plan::nearest(id, live.clone());
            let hint = if near.is_empty() {
                format!("the plan has {}", list(&live))
            } else {
                format!("did you mean {}?", list(&near))
            };
            return fail(
                json,
                &sch,
                &PlanError::Usage(format!("`{flag} {id}` names nothing in this plan; {hint}")),
            );
        }
    }
    let q = StepQuery {
        phase: options.phase.clone(),
        wave: options.wave.clone(),
        open: options.open,
        closed: options.closed,
        tier: None,
    };
    let steps = query_steps(plan, &q);
    let data = json!({ "matched": steps.len(), "total": plan.steps.len(), "steps": steps });
    done(json, &sch, UNCHANGED, data, || {
        for s in &steps {
            println!(
                "[{}] {} - {}; {}",
                if s.checked { "x" } else { " " },
                s.display_path,
                s.action,
                s.scope
            );
        }
        println!("{} of {} Steps", steps.len(), plan.steps.len());
    })
}

fn list(ids: &[String]) -> String {
    if ids.is_empty() {
        return "none".into();
    }
    ids.iter()
        .map(|i| format!("`{i}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn tier_show(options: vault_plan_tier::ShowOptions, target: &str) -> u8 {
    let json = options.json;
    let sch = schema("tier show");
    let doc = match open(&Workspace::open(), target) {
        Ok(d) => d,
        Err(err) => return fail(json, &sch, &err),
    };
    let tier = doc.plan.tier();
    let shape = match tier.level() {
        1 => "a flat list of Steps",
        2 => "Phases of Steps",
        3 => "Waves of Phases of Steps",
        _ => "an Epic intent over Waves of Phases of Steps",
    };
    done(json, &sch, UNCHANGED, json!({ "tier": tier }), || {
        println!("{tier} ({shape})")
    })
}

pub fn epic_show(options: vault_plan_epic_intent::ShowOptions, target: &str) -> u8 {
    let json = options.json;
    let sch = schema("epic intent show");
    let doc = match open(&Workspace::open(), target) {
        Ok(d) => d,
        Err(err) => return fail(json, &sch, &err),
    };
    let tier = doc.plan.tier();
    if tier.level() < 4 {
        let err = PlanError::WrongTier {
            verb: "epic intent show",
            tier,
            hint: "only L4 plans have an Epic intent; promote with `vault plan tier promote --to L4 --epic-intent TEXT`".into(),
        };
        return fail(json, &sch, &err);
    }
    let text = doc.plan.epic.as_ref().map(|e| e.text.clone());
    done(
        json,
        &sch,
        UNCHANGED,
        json!({ "tier": tier, "text": text }),
        || match &text {
            Some(t) => println!("{t}"),
            None => println!(
                "(this L4 plan has no Epic intent yet; add one with `vault plan epic intent edit --text`)"
            ),
        },
    )
}
