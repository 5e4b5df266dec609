//! The published shape of every hot tool: name, description, input and
//! output schemas, annotations, for each mode (`spec/mcp-tools.md` §1, §6, §7).
//!
//! Input schemas are the contract and are also what arguments are validated
//! against, so the bounds a client reads are the bounds it gets.
//!
//! Two spellings differ from the reference's on purpose, for clients that
//! read `type` as one string (the MCP Inspector's portability check): a
//! required-and-nullable field is `anyOf` a string and null, not
//! `{"type":["string","null"]}`, and `invoke`'s `data` lists the JSON types
//! it may be instead of the empty schema. Both accept exactly what the
//! reference's accept.

use serde_json::{Value, json};
use vaultspec_vault::search::SEARCHABLE_TYPES;

/// The hints a tool publishes about itself (`None`: key omitted). Every
/// tool says `openWorldHint: false`: none reaches the network.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hints {
    /// `readOnlyHint`.
    pub read_only: bool,
    /// `destructiveHint`, omitted for read-only tools.
    pub destructive: Option<bool>,
    /// `idempotentHint`.
    pub idempotent: bool,
}

/// A required field that is a string or `null`, spelled so that each
/// branch has one `type`.
fn nullable_string() -> Value {
    json!({"anyOf":[{"type":"string"},{"type":"null"}]})
}

/// Any JSON value (a verb's parsed output), spelled as the JSON types.
fn any_json() -> Value {
    json!({"anyOf":[{"type":"object"},{"type":"array"},{"type":"string"},
                    {"type":"number"},{"type":"boolean"},{"type":"null"}]})
}

/// A tool that only reads.
const READS: Hints = Hints {
    read_only: true,
    destructive: None,
    idempotent: true,
};

const fn writes(destructive: bool, idempotent: bool) -> Hints {
    Hints {
        read_only: false,
        destructive: Some(destructive),
        idempotent,
    }
}

/// One tool as `tools/list` shows it.
#[derive(Debug, Clone)]
pub struct ToolDef {
    /// Its name.
    pub name: &'static str,
    /// What it does, for the model choosing it.
    pub description: &'static str,
    /// The JSON Schema of its arguments.
    pub input: Value,
    /// The JSON Schema of its `structuredContent`.
    pub output: Value,
    /// Its annotations.
    pub hints: Hints,
}

/// The tools of a server in this mode, in the order `tools/list` sends them.
pub fn definitions(read_only: bool) -> Vec<ToolDef> {
    let mut defs = all(read_only);
    // A misspelt argument is refused, never dropped silently: every tool's
    // top-level arguments are closed.
    for def in &mut defs {
        def.input["additionalProperties"] = Value::Bool(false);
    }
    defs
}

fn all(read_only: bool) -> Vec<ToolDef> {
    if read_only {
        vec![
            find(),
            status(),
            check(true),
            search(),
            crossref(true),
            discover(),
        ]
    } else {
        vec![
            find(),
            create(),
            edit(),
            status(),
            check(false),
            search(),
            crossref(false),
            plan_progress(),
            plan_edit(),
            log(),
            discover(),
            invoke(),
        ]
    }
}

const DOC_TYPES: [&str; 7] = vaultspec_vault::DocType::NAMES;

fn find() -> ToolDef {
    ToolDef {
        name: "find",
        description: "Find vault documents, or list the vault's features.\n\n\
            With no feature, type, date or text this lists every feature with its document count and link weight \
            (json adds lifecycle status, types, first date and whether a plan exists). Otherwise it returns the \
            matching documents, each with its path, date and blob hash; text matches the file name or \
            feature tag, never the body. Ask for body excerpts to survey documents and full bodies for the few \
            that matter.\n\n\
            Args:\n    feature: Feature tag, without '#'.\n    type: Document types, searched in this order \
            (default: adr, plan, research, reference).\n    date: Exact date, YYYY-MM-DD.\n    text: Case-insensitive \
            substring of the name or feature.\n    body: none, excerpt (first 600 bytes) or full (at most 5 rows).\n    \
            json: Richer feature rows in listing mode.\n    limit: Rows to return, 1 to 100.",
        input: json!({"type":"object","properties":{
            "feature":{"type":"string","description":"Feature tag, no '#'."},
            "type":{"type":"array","description":"Default: adr, plan, research, reference.","items":{"type":"string","enum":DOC_TYPES}},
            "date":{"type":"string","description":"Exact date, YYYY-MM-DD."},
            "text":{"type":"string"},
            "body":{"type":"string","enum":["none","excerpt","full"],"default":"none"},
            "json":{"type":"boolean","default":false},
            "limit":{"type":"integer","minimum":1,"maximum":100,"default":20}}}),
        output: json!({"type":"object","required":["result"],"properties":{"result":{"type":"array","items":{
            "type":"object","required":["name"],"properties":{
                "name":{"type":"string"},"doc_count":{"type":"integer"},"weight":{"type":"integer"},"note":{"type":"string"},
                "status":{"type":"string"},"types":{"type":"array","items":{"type":"string"}},"earliest_date":{"type":"string"},
                "has_plan":{"type":"boolean"},"type":{"type":"string"},"feature":{"type":"string"},"date":{"type":"string"},
                "path":{"type":"string"},"blob_hash":{"type":"string"},"resource_uri":{"type":"string"},
                "body":{"type":"string"},"body_bytes":{"type":"integer"},"body_truncated":{"type":"boolean"}}}}}}),
        hints: READS,
    }
}

fn batch_output() -> Value {
    json!({"type":"object","required":["status","items"],"properties":{
        "status":{"type":"string"},
        "items":{"type":"array","items":{"type":"object","required":["index","status"],"properties":{
            "index":{"type":"integer"},"target":{"type":"string"},"status":{"type":"string"},"path":{"type":"string"},
            "blob_hash":{"type":"string"},"error":{"type":"object"},"warnings":{"type":"array","items":{"type":"string"}}}}},
        "counts":{"type":"object","additionalProperties":{"type":"integer"}},
        "submitted":{"type":"integer"},"items_omitted":{"type":"integer"}}})
}

fn create() -> ToolDef {
    ToolDef {
        name: "create",
        description: "Create vault documents from the workspace templates, several in one call.\n\n\
            Each spec names a feature and a type (default research); the file name, frontmatter and scaffold come from \
            the templates. Items run in order and one failure never stops the rest; affected feature indexes are \
            regenerated once at the end.\n\n\
            Args:\n    documents: Specs with feature, type, title, date, content (seeded as a Context section), \
            related, tags, tier (plans) and topic.",
        input: json!({"type":"object","required":["documents"],"properties":{"documents":{"type":"array","items":{
            "type":"object","required":["feature"],"properties":{
                "feature":{"type":"string"},"type":{"type":"string"},"title":{"type":"string"},
                "date":{"type":"string"},"content":{"type":"string"},
                "related":{"type":"array","items":{"type":"string"}},
                "tags":{"type":"array","items":{"type":"string"}},
                "tier":{"type":"string"},"topic":{"type":"string"}}}}}}),
        output: batch_output(),
        hints: writes(false, false),
    }
}

fn edit() -> ToolDef {
    ToolDef {
        name: "edit",
        description: "Edit document bodies: replace the whole body, or replace or append to one section.\n\n\
            Frontmatter and file names never change here; the modified stamp and body hash are refreshed. Pass the \
            blob hash you read to refuse the write if the file changed since.\n\n\
            Args:\n    operations: Each with target (stem, file name, path or [[link]]), operation (set_body, \
            replace_section or append_section), content, section (the heading) and expected_blob_hash.",
        input: json!({"type":"object","required":["operations"],"properties":{"operations":{"type":"array","items":{
            "type":"object","required":["target","operation","content"],"properties":{
                "target":{"type":"string"},"operation":{"type":"string"},"content":{"type":"string"},
                "section":{"type":"string"},"expected_blob_hash":{"type":"string"}}}}}}),
        output: batch_output(),
        hints: writes(true, false),
    }
}

fn status() -> ToolDef {
    ToolDef {
        name: "status",
        description: "Show where the vault stands, or trace one feature or plan.\n\n\
            With no target: the active features by latest activity, the plans with open steps and their next step, \
            and vault totals. With a feature tag or plan stem: each plan's steps with the execution records and \
            documents that ground them.\n\n\
            Args:\n    target: A feature tag or plan stem to trace.",
        input: json!({"type":"object","properties":{"target":{"type":"string"}}}),
        output: json!({"type":"object","required":["tool_schema_version","kind"],"properties":{
            "tool_schema_version":{"type":"string"},"kind":{"type":"string"},"target":{"type":"string"},
            "trace_kind":{"type":"string"},"features":{"type":"array"},"features_total":{"type":"integer"},
            "plans_in_flight":{"type":"array"},"totals":{"type":"object"},"plans":{"type":"array"},
            "hosted_search":{"type":"object","required":["configured","source"],"properties":{
                "configured":{"type":"boolean"},"source":nullable_string()}},
            "companion":{"type":"object","required":["package","signal","mode","version","floor","health_authority"],"properties":{
                "package":{"type":"string"},"signal":{"type":"string","enum":["absent","declared","present","below_floor"]},
                "mode":nullable_string(),"version":nullable_string(),
                "floor":{"type":"string"},"health_authority":{"type":"string"},
                "found":{"type":"array","items":{"type":"object","properties":{
                    "by":{"type":"string","enum":["enrollment","definition","command"]},"at":{"type":"string"}}}}}},
            "ranking":{"type":"string"}}}),
        hints: READS,
    }
}

fn check(read_only: bool) -> ToolDef {
    let output = json!({"type":"object","required":["status","fixed","total_errors","total_warnings","total_fixed"],"properties":{
        "status":{"type":"string"},"fixed":{"type":"boolean"},"total_errors":{"type":"integer"},
        "total_warnings":{"type":"integer"},"total_fixed":{"type":"integer"},
        "checks":{"type":"array","items":{"type":"object","required":["check","error_count","warning_count","info_count","fixed_count","clean"],"properties":{
            "check":{"type":"string"},"error_count":{"type":"integer"},"warning_count":{"type":"integer"},
            "info_count":{"type":"integer"},"fixed_count":{"type":"integer"},"clean":{"type":"boolean"}}}},
        "findings":{"type":"array","items":{"type":"object","required":["check","path","message","severity","fixable"],"properties":{
            "check":{"type":"string"},"path":nullable_string(),"message":{"type":"string"},
            "severity":{"type":"string"},"fixable":{"type":"boolean"}}}},
        "findings_total":{"type":"integer"},"findings_truncated":{"type":"boolean"}}});
    if read_only {
        ToolDef {
            name: "check",
            description: "Validate the whole vault and report what is wrong, without repairing.",
            input: json!({"type":"object","properties":{"feature":{"type":"string"}}}),
            output,
            hints: READS,
        }
    } else {
        ToolDef {
            name: "check",
            description: "Validate the whole vault; with fix, repair what is safe.",
            input: json!({"type":"object","properties":{"feature":{"type":"string"},"fix":{"type":"boolean","default":false}}}),
            output,
            hints: writes(false, true),
        }
    }
}

fn search() -> ToolDef {
    ToolDef {
        name: "search",
        description: "Find the passages of the vault that answer a question.\n\n\
            Ranked locally (BM25 over document sections): nothing leaves this machine and no key is needed. Each hit \
            names its document, date, feature and blob hash, with the best passage, its heading path and its file \
            lines. A local ranking cannot judge whether a passage answers the question, so no answer probability is \
            given: read the excerpts.\n\n\
            Args:\n    query: The question or the words to look for.\n    type: Document types (default: all).\n    \
            feature: Feature tag, without '#'.\n    date: Exact date, YYYY-MM-DD.\n    limit: Hits to return, 1 to 11.",
        input: json!({"type":"object","required":["query"],"properties":{
            "query":{"type":"string","minLength":1,"maxLength":2000},
            "type":{"type":"array","description":"Default: all.","items":{"type":"string","enum":SEARCHABLE_TYPES}},
            "feature":{"type":"string","description":"Feature tag, no '#'."},
            "date":{"type":"string","description":"Exact date, YYYY-MM-DD."},
            "limit":{"type":"integer","minimum":1,"maximum":11,"default":4}}}),
        output: json!({"type":"object","required":["status","answered"],"properties":{
            "status":{"type":"string"},"answered":{"type":"boolean"},"ranking":{"type":"string"},
            "hits":{"type":"array","items":{"type":"object","required":["path","type","feature","date","title","score","blob_hash"],"properties":{
                "path":{"type":"string"},"type":{"type":"string"},"feature":{"type":"string"},"date":{"type":"string"},
                "title":nullable_string(),"score":{"type":"number"},"blob_hash":{"type":"string"},
                "excerpt":{"$ref":"#/$defs/Excerpt"}}}},
            "returned":{"type":"integer"},"total":{"type":"integer"},"truncated":{"type":"boolean"}},
            "$defs":{"Excerpt":{"type":"object","required":["section","line_start","line_end","text","truncated"],"properties":{
                "section":{"type":"string"},"line_start":{"type":"integer"},"line_end":{"type":"integer"},
                "text":{"type":"string"},"truncated":{"type":"boolean"}}}}}),
        hints: READS,
    }
}

fn crossref(read_only: bool) -> ToolDef {
    let output = json!({"type":"object","properties":{
        "sources":{"type":"array","items":{"type":"object","required":["source","status"],"properties":{
            "source":{"type":"string"},"status":{"type":"string"},
            "verdicts":{"type":"array","items":{"type":"object","required":["stem","kind","score","relation","declared"],"properties":{
                "stem":{"type":"string"},"kind":{"type":"string"},"score":{"type":"number"},"relation":{"type":"string"},
                "declared":{"type":"boolean"},"applied":{"type":"boolean"}}}},
            "verdicts_total":{"type":"integer"},"truncated":{"type":"boolean"},"links":{"type":"integer"},"written":{"type":"integer"}}}},
        "judged":{"type":"integer"},"links":{"type":"integer"},"written":{"type":"integer"},"remaining":{"type":"integer"},
        "next_after":{"type":"string"},"ranking":{"type":"string"}}});
    if read_only {
        ToolDef {
            name: "crossref",
            description: "Suggest the ADRs one ADR relates to, ranked locally; never writes.\n\n\
                Candidates are ranked by how much of their wording and feature they share with the ADR (or with a \
                draft body you pass).\n\n\
                Args:\n    ref: The ADR to judge.\n    body: A draft body to judge instead of the saved one.",
            input: json!({"type":"object","required":["ref"],"properties":{
                "ref":{"type":"string","minLength":1,"description":"The ADR to judge."},
                "body":{"type":"string"}}}),
            output,
            hints: READS,
        }
    } else {
        ToolDef {
            name: "crossref",
            description: "Suggest the ADRs an ADR relates to, ranked locally; apply writes them into related:.\n\n\
                Judge one ADR (optionally a draft body), or sweep a feature's ADRs, the ADRs linking to no other, or all of \
                them, a page at a time.\n\n\
                Args:\n    refs: ADRs to judge: stem, file name, path or [[link]].\n    feature: Sweep this feature's ADRs.\n    \
                isolated: Sweep ADRs that link to no other ADR.\n    all_adrs: Sweep every ADR.\n    after: Continue a sweep after this stem.\n    \
                max_sources: ADRs to judge in one call.\n    apply: Write the suggested links.\n    body: A draft body (one ADR only).",
            input: json!({"type":"object","properties":{
                "refs":{"type":"array","items":{"type":"string"},"maxItems":50,"description":"ADRs to judge: stem, filename, path or [[wiki-link]]."},
                "feature":{"type":"string","description":"Sweep this feature's ADRs."},
                "isolated":{"type":"boolean","default":false},
                "all_adrs":{"type":"boolean","default":false},
                "after":{"type":"string"},
                "max_sources":{"type":"integer","minimum":1,"maximum":50,"default":10},
                "apply":{"type":"boolean","default":false},
                "body":{"type":"string"}}}),
            output,
            hints: writes(false, true),
        }
    }
}

fn plan_progress() -> ToolDef {
    ToolDef {
        name: "plan_progress",
        description: "Check or uncheck plan steps, several in one call.\n\n\
            The plan is written once, only if something changed, with its modified stamp refreshed. Steps are named \
            by id (S03) or display path (P02.S03).\n\n\
            Args:\n    plan: The plan's stem, or a feature with exactly one plan.\n    steps: Each a step_id and a state \
            (checked or unchecked).",
        input: json!({"type":"object","required":["plan","steps"],"properties":{
            "plan":{"type":"string"},
            "steps":{"type":"array","items":{"type":"object","required":["step_id","state"],"properties":{
                "step_id":{"type":"string"},"state":{"type":"string"}}}}}}),
        output: json!({"type":"object","required":["status","plan","items","total_steps","steps_completed","completion_percent","next_open_step"],"properties":{
            "status":{"type":"string"},"plan":{"type":"string"},
            "items":{"type":"array","items":{"type":"object","required":["step_id","state","status"],"properties":{
                "step_id":{"type":"string"},"state":{"type":"string"},"status":{"type":"string"},"error":{"type":"object"}}}},
            "total_steps":{"type":"integer"},"steps_completed":{"type":"integer"},"completion_percent":{"type":"number"},
            "next_open_step":nullable_string()}}),
        hints: writes(false, true),
    }
}

fn plan_edit() -> ToolDef {
    ToolDef {
        name: "plan_edit",
        description: "Add, insert, edit or remove plan steps, several in one call.\n\n\
            New steps get the next free id; a removed id is retired and never reused. Phases, waves and tiers are \
            verbs of the long tail (discover 'plan phase').\n\n\
            Args:\n    plan: The plan's stem, or a feature with exactly one plan.\n    operations: Each an operation (add, \
            insert, edit, remove) with action, scope, phase_id, before, after or step_id as it needs.",
        input: json!({"type":"object","required":["plan","operations"],"properties":{
            "plan":{"type":"string"},
            "operations":{"type":"array","items":{"type":"object","required":["operation"],"properties":{
                "operation":{"type":"string"},"action":{"type":"string"},"scope":{"type":"string"},
                "phase_id":{"type":"string"},"before":{"type":"string"},"after":{"type":"string"},
                "step_id":{"type":"string"}}}}}}),
        output: json!({"type":"object","required":["status","plan","items","total_steps","steps_completed","next_open_step"],"properties":{
            "status":{"type":"string"},"plan":{"type":"string"},
            "items":{"type":"array","items":{"type":"object","required":["operation","status"],"properties":{
                "operation":{"type":"string"},"status":{"type":"string"},"step_id":{"type":"string"},"error":{"type":"object"}}}},
            "total_steps":{"type":"integer"},"steps_completed":{"type":"integer"},
            "next_open_step":nullable_string()}}),
        hints: writes(true, false),
    }
}

fn log() -> ToolDef {
    ToolDef {
        name: "log",
        description: "Record what a plan step changed in the feature's execution ledger.\n\n\
            Creates the ledger on first use. Logging the same rows again changes nothing.\n\n\
            Args:\n    feature: The feature tag.\n    plan: The plan's stem.\n    step: S01 or P01.S01.\n    rows: Changes as \
            A:path, M:path, D:path or R:old->new.\n    verify: Checks run, as command=pass or command=fail.\n    \
            by: Who did the work.\n    notes: Exceptions worth recording.",
        input: json!({"type":"object","required":["feature","plan","step"],"properties":{
            "feature":{"type":"string"},"plan":{"type":"string"},"step":{"type":"string"},
            "rows":{"type":"array","items":{"type":"string"}},
            "verify":{"type":"array","items":{"type":"string"}},
            "by":{"type":"string"},
            "notes":{"type":"array","items":{"type":"string"}}}}),
        output: json!({"type":"object","required":["path","step","rows","notes","changed","created"],"properties":{
            "path":{"type":"string"},"step":{"type":"string"},"rows":{"type":"integer"},"notes":{"type":"integer"},
            "changed":{"type":"boolean"},"created":{"type":"boolean"}}}),
        hints: writes(false, true),
    }
}

fn discover() -> ToolDef {
    ToolDef {
        name: "discover",
        description: "Find the verb that does what you need among every vaultspec command, with its parameters.\n\n\
            Ranks the whole verb catalog (plans, phases, waves, checks, features, archives, links, ADRs, ledgers and \
            more) by how well its name, description and the requests it was written for match your words: word \
            forms, the vault's synonyms (delete for remove, done for check) and typos count. Each verb says which of \
            your words matched it and whether it only reads (read_only: its component cannot write), and comes with its flags (whether each takes a value, repeats, is required, its choices) and operands, ready for invoke.\n\n\
            Args:\n    query: What you want to do, in a few words.\n    limit: Verbs to return, 1 to 50.",
        input: json!({"type":"object","required":["query"],"properties":{
            "query":{"type":"string"},
            "limit":{"type":"integer","minimum":1,"maximum":50,"default":10}}}),
        output: json!({"type":"object","required":["query","count"],"properties":{
            "query":{"type":"string"},"count":{"type":"integer"},
            "verbs":{"type":"array","items":{"type":"object","required":["verb","description","score","supports_json"],"properties":{
                "verb":{"type":"string"},"description":{"type":"string"},"group":{"type":"string"},"score":{"type":"number"},
                "matched":{"type":"array","items":{"type":"string"}},
                "supports_json":{"type":"boolean"},"read_only":{"type":"boolean"},"trusted":{"type":"boolean"},
                "flags":{"type":"array","items":{"type":"object","required":["name","takes_value"],"properties":{
                    "name":{"type":"string"},"takes_value":{"type":"boolean"},"repeatable":{"type":"boolean"},
                    "required":{"type":"boolean"},"type":{"type":"string"},
                    "choices":{"type":"array","items":{"type":"string"}},"help":{"type":"string"}}}},
                "arguments":{"type":"array","items":{"type":"object","required":["name","required"],"properties":{
                    "name":{"type":"string"},"required":{"type":"boolean"},"variadic":{"type":"boolean"},
                    "help":{"type":"string"},"choices":{"type":"array","items":{"type":"string"}}}}}}}}}}),
        hints: READS,
    }
}

fn invoke() -> ToolDef {
    ToolDef {
        name: "invoke",
        description: "Run one verb of the catalog (find it with discover first) in a sandbox.\n\n\
            Flags go in arguments by name (feature, --feature or dry_run all work; a list repeats the flag; false \
            leaves a switch off); operands go in positionals. The verb sees only this workspace, has no network and \
            no terminal, may print at most 1 MiB, and is stopped at the timeout. A JSON-capable verb's output comes \
            back parsed in data; changed lists the files it wrote, and read_only says the verb could not write at all.\n\n\
            Args:\n    verb: The verb path, e.g. 'vault plan step add'.\n    arguments: Flag values by flag name.\n    \
            positionals: Operands, in order.\n    timeout: Seconds before the verb is stopped (at most 120).",
        input: json!({"type":"object","required":["verb"],"properties":{
            "verb":{"type":"string"},
            "arguments":{"type":"object"},
            "positionals":{"type":"array","items":{"type":"string"}},
            "timeout":{"type":"number","default":60.0}}}),
        output: json!({"type":"object","required":["verb","ok","exit_code","format"],"properties":{
            "verb":{"type":"string"},"ok":{"type":"boolean"},"exit_code":{"type":"integer"},"format":{"type":"string"},
            "data":any_json(),"stdout":{"type":"string"},
            "error":{"type":"object","required":["kind","exit_code","message"],"properties":{
                "kind":{"type":"string"},"exit_code":{"type":"integer"},"message":{"type":"string"},"stderr":{"type":"string"}}},
            "command":{"type":"array","items":{"type":"string"}},
            "changed":{"type":"array","items":{"type":"string"}},
            "read_only":{"type":"boolean"}}}),
        hints: writes(true, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The MCP Inspector's portability findings in `schema` (its rules
    /// `type-union`, `untyped-schema`, `boolean-schema`, `remote-ref`).
    fn portability(schema: &Value, at: &str, out: &mut Vec<String>) {
        let Value::Object(node) = schema else {
            out.push(format!("{at}: a bare {schema} where a schema belongs"));
            return;
        };
        if node.get("type").is_some_and(Value::is_array) {
            out.push(format!("{at}: `type` is an array"));
        }
        if node
            .get("$ref")
            .and_then(Value::as_str)
            .is_some_and(|r| !r.starts_with('#'))
        {
            out.push(format!("{at}: a remote $ref"));
        }
        let constraining = [
            "type",
            "enum",
            "const",
            "anyOf",
            "oneOf",
            "allOf",
            "not",
            "$ref",
            "properties",
            "required",
            "items",
            "minimum",
            "maximum",
            "minLength",
            "maxLength",
            "pattern",
            "minItems",
            "maxItems",
            "additionalProperties",
        ];
        if !node.keys().any(|k| constraining.contains(&k.as_str())) {
            out.push(format!("{at}: constrains nothing"));
        }
        for key in ["properties", "$defs", "patternProperties"] {
            for (name, sub) in node
                .get(key)
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
            {
                portability(sub, &format!("{at}.{key}.{name}"), out);
            }
        }
        for key in ["anyOf", "oneOf", "allOf", "prefixItems"] {
            for (i, sub) in node
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                portability(sub, &format!("{at}.{key}[{i}]"), out);
            }
        }
        for key in ["items", "not", "additionalProperties", "contains"] {
            match node.get(key) {
                Some(Value::Bool(_)) if key == "additionalProperties" => {}
                Some(sub) => portability(sub, &format!("{at}.{key}"), out),
                None => {}
            }
        }
    }

    #[test]
    fn every_schema_is_portable_to_clients_that_read_one_type() {
        let mut findings = Vec::new();
        for read_only in [false, true] {
            for tool in definitions(read_only) {
                portability(&tool.input, &format!("{} input", tool.name), &mut findings);
                portability(
                    &tool.output,
                    &format!("{} output", tool.name),
                    &mut findings,
                );
            }
        }
        assert!(findings.is_empty(), "{}", findings.join("\n"));
    }

    #[test]
    fn tools_are_listed_in_the_reference_order() {
        let names: Vec<_> = definitions(false).iter().map(|t| t.name).collect();
        assert_eq!(
            names,
            [
                "find",
                "create",
                "edit",
                "status",
                "check",
                "search",
                "crossref",
                "plan_progress",
                "plan_edit",
                "log",
                "discover",
                "invoke"
            ]
        );
        let names: Vec<_> = definitions(true).iter().map(|t| t.name).collect();
        assert_eq!(
            names,
            ["find", "status", "check", "search", "crossref", "discover"]
        );
    }

    #[test]
    fn read_only_tools_omit_the_destructive_hint() {
        for tool in definitions(true) {
            assert!(
                tool.hints.read_only && tool.hints.destructive.is_none(),
                "{}",
                tool.name
            );
        }
    }
}
