//! Which IP addresses the fetcher may connect to.
//!
//! A feed URL is typed by a user, so without this check a user could make the server read its own
//! admin ports, a cloud metadata endpoint or a machine on the private network (SSRF). The check
//! runs on resolved addresses, so a public name pointing at a private address is refused too.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use ipnet::IpNet;

/// Why an address is refused; shown to the person who added the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockReason {
    Loopback,
    Private,
    LinkLocal,
    Unspecified,
    Multicast,
    SharedAddressSpace,
    Metadata,
    Reserved,
}

impl BlockReason {
    pub fn as_str(self) -> &'static str {
        match self {
            BlockReason::Loopback => "loopback",
            BlockReason::Private => "private network",
            BlockReason::LinkLocal => "link-local",
            BlockReason::Unspecified => "unspecified",
            BlockReason::Multicast => "multicast",
            BlockReason::SharedAddressSpace => "carrier-grade NAT",
            BlockReason::Metadata => "cloud metadata",
            BlockReason::Reserved => "reserved",
        }
    }
}

/// The block list with an operator allow-list on top. Cheap to clone; shared by the resolver
/// and the redirect policy.
#[derive(Debug, Clone, Default)]
pub struct AddressGuard {
    /// Networks the operator allows even though they are blocked by default (tests allow
    /// 127.0.0.1 to serve files from a local server; an intranet install may allow 10.0.0.0/8).
    allow: Vec<IpNet>,
}

impl AddressGuard {
    pub fn new(allow: Vec<IpNet>) -> Self {
        Self { allow }
    }

    /// Whether the operator allowed `ip`'s network by name (as opposed to it being public).
    pub fn allows_explicitly(&self, ip: IpAddr) -> bool {
        let mapped = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4),
            IpAddr::V4(_) => None,
        };
        self.allow.iter().any(|net| net.contains(&ip) || mapped.is_some_and(|v4| net.contains(&v4)))
    }

    /// Returns why `ip` is refused, or `None` when the fetcher may connect to it.
    pub fn check(&self, ip: IpAddr) -> Option<BlockReason> {
        if self.allow.iter().any(|net| net.contains(&ip)) {
            return None;
        }
        let reason = blocked_by_default(ip)?;
        // An IPv4-mapped IPv6 address of an allowed IPv4 address is allowed too.
        if let IpAddr::V6(v6) = ip {
            if let Some(v4) = embedded_v4(v6) {
                if self.allow.iter().any(|net| net.contains(&IpAddr::V4(v4))) {
                    return None;
                }
            }
        }
        Some(reason)
    }
}

/// Returns the reason an address is refused when no allow-list applies.
pub fn blocked_by_default(ip: IpAddr) -> Option<BlockReason> {
    match ip {
        IpAddr::V4(v4) => blocked_v4(v4),
        IpAddr::V6(v6) => blocked_v6(v6),
    }
}

fn blocked_v4(ip: Ipv4Addr) -> Option<BlockReason> {
    let [a, b, c, _] = ip.octets();
    if ip.is_unspecified() || a == 0 {
        Some(BlockReason::Unspecified)
    } else if ip.is_loopback() {
        Some(BlockReason::Loopback)
    } else if ip == Ipv4Addr::new(169, 254, 169, 254) || ip == Ipv4Addr::new(100, 100, 100, 200) {
        // AWS/GCP/Azure and Alibaba metadata services.
        Some(BlockReason::Metadata)
    } else if ip.is_private() {
        Some(BlockReason::Private)
    } else if ip.is_link_local() {
        Some(BlockReason::LinkLocal)
    } else if a == 100 && (64..128).contains(&b) {
        Some(BlockReason::SharedAddressSpace)
    } else if ip.is_multicast() {
        Some(BlockReason::Multicast)
    } else if ip.is_broadcast() || a >= 240 || (a == 192 && b == 0 && c == 0) {
        // 240/4 is reserved, 192.0.0/24 holds protocol assignments (and some metadata services).
        Some(BlockReason::Reserved)
    } else {
        None
    }
}

fn blocked_v6(ip: Ipv6Addr) -> Option<BlockReason> {
    if let Some(v4) = embedded_v4(ip) {
        return blocked_v4(v4);
    }
    let first = ip.segments()[0];
    if ip.is_unspecified() {
        Some(BlockReason::Unspecified)
    } else if ip.is_loopback() {
        Some(BlockReason::Loopback)
    } else if ip == Ipv6Addr::new(0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x0254) {
        Some(BlockReason::Metadata)
    } else if first & 0xfe00 == 0xfc00 {
        Some(BlockReason::Private)
    } else if first & 0xffc0 == 0xfe80 {
        Some(BlockReason::LinkLocal)
    } else if ip.is_multicast() {
        Some(BlockReason::Multicast)
    } else {
        None
    }
}

/// Returns the IPv4 address carried by an IPv4-mapped (`::ffff:a.b.c.d`), IPv4-compatible
/// (`::a.b.c.d`) or NAT64 (`64:ff9b::a.b.c.d`) address, since each reaches that IPv4 host.
fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return Some(v4);
    }
    let s = ip.segments();
    let tail = Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
    if s[..6] == [0, 0, 0, 0, 0, 0] && !ip.is_unspecified() && !ip.is_loopback() {
        return Some(tail);
    }
    if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return Some(tail);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(s: &str) -> Option<BlockReason> {
        AddressGuard::default().check(s.parse().unwrap())
    }

    #[test]
    fn internal_addresses_are_refused_and_public_ones_are_not() {
        let blocked = [
            ("127.0.0.1", BlockReason::Loopback),
            ("127.9.9.9", BlockReason::Loopback),
            ("10.1.2.3", BlockReason::Private),
            ("172.16.0.1", BlockReason::Private),
            ("172.31.255.255", BlockReason::Private),
            ("192.168.1.1", BlockReason::Private),
            ("169.254.1.1", BlockReason::LinkLocal),
            ("169.254.169.254", BlockReason::Metadata),
            ("100.64.0.1", BlockReason::SharedAddressSpace),
            ("100.127.255.255", BlockReason::SharedAddressSpace),
            ("0.0.0.0", BlockReason::Unspecified),
            ("224.0.0.1", BlockReason::Multicast),
            ("255.255.255.255", BlockReason::Reserved),
            ("::1", BlockReason::Loopback),
            ("::", BlockReason::Unspecified),
            ("fc00::1", BlockReason::Private),
            ("fd12:3456::1", BlockReason::Private),
            ("fe80::1", BlockReason::LinkLocal),
            ("ff02::1", BlockReason::Multicast),
            ("::ffff:127.0.0.1", BlockReason::Loopback),
            ("::ffff:10.0.0.1", BlockReason::Private),
            ("64:ff9b::a9fe:a9fe", BlockReason::Metadata),
        ];
        for (ip, expected) in blocked {
            assert_eq!(reason(ip), Some(expected), "{ip}");
        }
        for ip in ["1.1.1.1", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::1111"] {
            assert_eq!(reason(ip), None, "{ip}");
        }
    }

    #[test]
    fn the_allow_list_lets_a_blocked_address_through_and_nothing_else() {
        let guard = AddressGuard::new(vec!["127.0.0.1/32".parse().unwrap()]);
        assert_eq!(guard.check("127.0.0.1".parse().unwrap()), None);
        assert_eq!(guard.check("::ffff:127.0.0.1".parse().unwrap()), None);
        assert_eq!(guard.check("127.0.0.2".parse().unwrap()), Some(BlockReason::Loopback));
        assert_eq!(guard.check("10.0.0.1".parse().unwrap()), Some(BlockReason::Private));
    }
}
