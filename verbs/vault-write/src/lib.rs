//! The builtin `vault` verbs that change the vault: documents, features,
//! archives, links, ADRs, rules and annotations.
//!
//! This component imports write access; the read-only `vault` verbs live in
//! the `vault` component, which does not. Each verb parses its options,
//! calls one operation of the vault model and prints its outcome.

mod crossref;
mod document;
mod feature;
mod link;
mod preview;
mod repair;
mod report;
mod rule;

use exports::vaultspec::vault_write::{
    vault, vault_adr, vault_archive, vault_feature, vault_link, vault_rule, vault_sanitize,
};

struct Verbs;

impl vault::Guest for Verbs {
    fn add(options: vault::AddOptions, doc_type: String) -> u8 {
        document::add(options, doc_type)
    }
    fn set_body(options: vault::SetBodyOptions, reference: String) -> u8 {
        document::set_body(options, reference)
    }
    fn set_frontmatter(options: vault::SetFrontmatterOptions, reference: String) -> u8 {
        document::set_frontmatter(options, reference)
    }
    fn edit(options: vault::EditOptions, reference: String) -> u8 {
        document::edit(options, reference)
    }
    fn rename(options: vault::RenameOptions, reference: String) -> u8 {
        document::rename(options, reference)
    }
    fn repair(options: vault::RepairOptions) -> u8 {
        repair::repair(options)
    }
}

impl vault_feature::Guest for Verbs {
    fn index(options: vault_feature::IndexOptions) -> u8 {
        feature::index(options)
    }
    fn archive(options: vault_feature::ArchiveOptions, feature_tag: String) -> u8 {
        feature::archive(options, feature_tag)
    }
    fn unarchive(options: vault_feature::UnarchiveOptions, feature_tag: String) -> u8 {
        feature::unarchive(options, feature_tag)
    }
    fn rename(
        options: vault_feature::RenameOptions,
        old_feature: String,
        new_feature: String,
    ) -> u8 {
        feature::rename(options, old_feature, new_feature)
    }
}

impl vault_archive::Guest for Verbs {
    fn documents(options: vault_archive::DocumentsOptions) -> u8 {
        feature::documents(options)
    }
    fn restore(options: vault_archive::RestoreOptions) -> u8 {
        feature::restore(options)
    }
}

impl vault_link::Guest for Verbs {
    fn add(options: vault_link::AddOptions, src: String, dst: String) -> u8 {
        link::add(options, src, dst)
    }
    fn remove(options: vault_link::RemoveOptions, src: String, dst: String) -> u8 {
        link::remove(options, src, dst)
    }
}

impl vault_adr::Guest for Verbs {
    fn crossref(options: vault_adr::CrossrefOptions, refs: Vec<String>) -> u8 {
        crossref::crossref(options, refs)
    }
    fn supersede(options: vault_adr::SupersedeOptions, old_adr: String) -> u8 {
        link::supersede(options, old_adr)
    }
}

impl vault_rule::Guest for Verbs {
    fn promote(options: vault_rule::PromoteOptions) -> u8 {
        rule::promote(options)
    }
}

impl vault_sanitize::Guest for Verbs {
    fn annotations(options: vault_sanitize::AnnotationsOptions) -> u8 {
        repair::annotations(options)
    }
}

vaultspec_sdk::verb!(Verbs);
