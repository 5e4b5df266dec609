//! A test verb that imports WASI filesystem, which the host never grants.

struct FsRead;

impl exports::guests::fsread::fsread::Guest for FsRead {
    fn cat(path: String) -> u8 {
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                print!("{text}");
                0
            }
            Err(_) => 1,
        }
    }
}

vaultspec_sdk::verb!(FsRead);
