//! A hostile test verb: each function tries to escape or exhaust the sandbox.

use std::io::{Read, Write};

use vaultspec_sdk::WritableWorkspace;
use vaultspec_sdk::vault::Storage;

struct Probe;

impl exports::guests::probe::probe::Guest for Probe {
    fn read(path: String) -> u8 {
        match WritableWorkspace::open().read(&path) {
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
        match WritableWorkspace::open().write(&path, text.as_bytes()) {
            Ok(()) => {
                println!("wrote {path}");
                0
            }
            Err(err) => {
                println!("refused: {err}");
                1
            }
        }
    }

    fn env() -> u8 {
        for (key, value) in std::env::vars() {
            println!("{key}={value}");
        }
        0
    }

    fn stdin() -> u8 {
        let mut buf = Vec::new();
        let _ = std::io::stdin().read_to_end(&mut buf);
        println!("stdin gave {} bytes", buf.len());
        0
    }

    fn spin() -> u8 {
        let mut n: u64 = 0;
        loop {
            n = std::hint::black_box(n.wrapping_add(1));
        }
    }

    fn hog() -> u8 {
        let mut hoard: Vec<Vec<u8>> = Vec::new();
        loop {
            hoard.push(vec![1u8; 16 * 1024 * 1024]);
            std::hint::black_box(&hoard);
        }
    }

    fn flood() -> u8 {
        let line = [b'x'; 1023];
        let mut out = std::io::stdout().lock();
        for _ in 0..10 * 1024 {
            let _ = out.write_all(&line);
            let _ = out.write_all(b"\n");
        }
        0
    }

    fn panic() -> u8 {
        panic!("the probe panicked on purpose")
    }

    fn trap() -> u8 {
        core::arch::wasm32::unreachable()
    }
}

vaultspec_sdk::verb!(Probe);
