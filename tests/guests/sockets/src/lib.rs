//! A test verb that imports WASI sockets, which the host never grants.

struct Sockets;

impl exports::guests::sockets::sockets::Guest for Sockets {
    fn dial() -> u8 {
        let network = wasi::sockets::instance_network::instance_network();
        drop(network);
        0
    }
}

vaultspec_sdk::verb!(Sockets);
