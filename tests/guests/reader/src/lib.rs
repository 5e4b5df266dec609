//! A read-only test verb that tries to write anyway.

use vaultspec_sdk::Workspace;
use vaultspec_sdk::vault::Storage;

struct Reader;

impl exports::guests::reader::reader::Guest for Reader {
    fn read(path: String) -> u8 {
        match Workspace::open().read(&path) {
            Ok(bytes) => {
                println!("read {} bytes", bytes.len());
                0
            }
            Err(err) => {
                println!("refused: {err}");
                1
            }
        }
    }

    fn write(path: String, text: String) -> u8 {
        match Workspace::open().write(&path, text.as_bytes()) {
            Ok(()) => 0,
            Err(err) => {
                println!("refused: {err}");
                1
            }
        }
    }
}

vaultspec_sdk::verb!(Reader);
