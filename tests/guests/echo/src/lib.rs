//! A test verb that prints back what the host passed in.

use exports::guests::echo::echo::{Mood, SayOptions};
use vaultspec_sdk::output;
use vaultspec_sdk::serde_json::json;

struct Echo;

impl exports::guests::echo::echo::Guest for Echo {
    fn say(options: SayOptions, first: String, rest: Vec<String>) -> u8 {
        let mood = options.mood.map(|m| match m {
            Mood::Calm => "calm",
            Mood::Loud => "loud",
        });
        let env: Vec<String> = std::env::vars().map(|(k, v)| format!("{k}={v}")).collect();
        let data = json!({
            "first": first,
            "rest": rest,
            "times": options.times,
            "words": options.word,
            "mood": mood,
            "shout": options.shout,
            "env": env,
        });
        if options.json {
            output::print_json(&output::envelope(
                "vaultspec.echo.say.v1",
                "unchanged",
                data,
            ));
        } else {
            println!("{first} {}", rest.join(" "));
        }
        0
    }
}

impl Guest for Echo {
    fn noop() -> u8 {
        0
    }
}

vaultspec_sdk::verb!(Echo);
