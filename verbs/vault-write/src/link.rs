//! `vault link add|remove` and `vault adr supersede`: the verbs that change
//! the links between documents.

use vaultspec_sdk::WritableWorkspace;
use vaultspec_sdk::serde_json::json;
use vaultspec_sdk::vault::ops::Status;
use vaultspec_sdk::vault::ops::link::{self, LinkChange};
use vaultspec_sdk::vault::{Date, Storage, adr};

use crate::exports::vaultspec::vault_write::vault_adr::SupersedeOptions;
use crate::exports::vaultspec::vault_write::vault_link::{AddOptions, RemoveOptions};
use crate::preview::Preview;
use crate::report::{done, fail, fail_in, word};

fn print_change(json: bool, schema: &str, change: &LinkChange) -> u8 {
    let mut data = json!({ "src": change.src, "dst": change.dst });
    if change.dry_run {
        data["dry_run"] = json!(true);
    }
    if change.status == Status::Unchanged {
        let message = if schema.ends_with("add.v1") {
            "edge already exists"
        } else {
            "edge does not exist"
        };
        data["message"] = json!(message);
    }
    done(json, schema, word(change.status), data, || {
        let arrow = format!("{} -> {}", change.src, change.dst);
        match (change.status, change.dry_run) {
            (Status::Unchanged, _) if schema.ends_with("add.v1") => {
                println!("{arrow} already linked")
            }
            (Status::Unchanged, _) => println!("{arrow} was not linked"),
            (Status::Created, true) => println!("would link {arrow}"),
            (Status::Created, false) => println!("linked {arrow}"),
            (_, true) => println!("would unlink {arrow}"),
            (_, false) => println!("unlinked {arrow}"),
        }
    })
}

pub fn add(options: AddOptions, src: String, dst: String) -> u8 {
    let json = options.json;
    match link::add(
        &WritableWorkspace::open(),
        &src,
        &dst,
        options.force,
        options.dry_run,
        Date::today_utc(),
    ) {
        Ok(change) => print_change(json, "vaultspec.vault.link.add.v1", &change),
        Err(err) => fail(json, err),
    }
}

pub fn remove(options: RemoveOptions, src: String, dst: String) -> u8 {
    let json = options.json;
    match link::remove(
        &WritableWorkspace::open(),
        &src,
        &dst,
        options.dry_run,
        Date::today_utc(),
    ) {
        Ok(change) => print_change(json, "vaultspec.vault.link.remove.v1", &change),
        Err(err) => fail(json, err),
    }
}

pub fn supersede(options: SupersedeOptions, old: String) -> u8 {
    let json = options.json;
    let schema = "vaultspec.vault.adr.supersede.v1";
    let Some(by) = options.by.filter(|b| !b.trim().is_empty()) else {
        let message = "`--by` is required: name the accepted ADR that supersedes this one";
        return fail_in(json, schema, json!({ "message": message }), message);
    };
    let ws = WritableWorkspace::open();
    let preview = Preview::new(&ws);
    let storage: &dyn Storage = if options.dry_run { &preview } else { &ws };
    let done_ = match adr::supersede(storage, &old, &by, Date::today_utc()) {
        Ok(s) => s,
        Err(err) => return fail(json, err),
    };
    let mut data = json!({ "old_path": done_.old_path, "new_path": done_.new_path });
    if options.dry_run {
        data["dry_run"] = json!(true);
    }
    done(json, schema, word(done_.status), data, || {
        let verb = match (done_.status, options.dry_run) {
            (Status::Unchanged, _) => "already superseded:",
            (_, true) => "would supersede",
            (_, false) => "superseded",
        };
        println!("{verb} {} by {}", done_.old_path, done_.new_path);
    })
}
