//! A test component whose embedded declaration lies about its real exports.

wit_bindgen::generate!({ path: "wit" });

struct Liar;

impl exports::guests::liar::vault_plan_step::Guest for Liar {
    fn check(
        _plan: String,
        _step: String,
        _options: exports::guests::liar::vault_plan_step::CheckOptions,
    ) -> u8 {
        0
    }
}

export!(Liar);

#[unsafe(link_section = "vaultspec-wit")]
#[used]
static LIE: [u8; include_bytes!("../lie.wit").len()] = *include_bytes!("../lie.wit");
