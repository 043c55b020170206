//! Who `xq serve` answers: requests for a host it serves (an IP address, `localhost`, or a name
//! given with `--allowed-host`), from its own page or an origin given with `--cors`, with headers
//! of a sane size; the origins given with `--cors` get CORS answers. Anything else gets a JSON refusal before any work, so a page on another site
//! cannot drive a server on the user's machine (cross-site posts, DNS rebinding).

use super::api::error;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::IpAddr;
use std::sync::Arc;
use tower_http::cors::{AllowOrigin, CorsLayer};

/// The most bytes of headers (names and values) a request may carry; more get 431.
pub const MAX_HEADER_BYTES: usize = 32 << 10;

/// The hosts and cross-site origins the server answers.
#[derive(Clone, Debug, Default)]
pub struct Policy {
    /// Host names served besides IP addresses and `localhost` (lower case, no port).
    pub allowed_hosts: Vec<String>,
    /// Origins (`scheme://host[:port]`) whose pages may call the API.
    pub cors: Vec<String>,
}

impl Policy {
    /// Whether requests naming `host` (as in a Host header, port and all) are served.
    pub fn serves_host(&self, host: &str) -> bool {
        let name = host_name(host).to_ascii_lowercase();
        let bare = name.trim_start_matches('[').trim_end_matches(']');
        bare.parse::<IpAddr>().is_ok() || name == "localhost" || self.allowed_hosts.contains(&name)
    }

    /// Whether a page from `origin` may call a server reached as `host`: its own page (the
    /// origin names the host itself), or an origin given with `--cors`.
    pub fn allows_origin(&self, origin: &str, host: Option<&str>) -> bool {
        let own = origin
            .split_once("://")
            .is_some_and(|(_, rest)| host.is_some_and(|h| rest.eq_ignore_ascii_case(h)));
        own || self.cors.iter().any(|c| c == origin)
    }
}

/// The host name of a Host header's value: without the port (an IPv6 address keeps its
/// brackets).
fn host_name(host: &str) -> &str {
    if host.starts_with('[') {
        return host.split_inclusive(']').next().unwrap_or(host);
    }
    host.rsplit_once(':').map_or(host, |(name, _)| name)
}

/// Refuses what the [`Policy`] does not serve; answers the CORS preflight of an origin it allows
/// and marks the answers to it.
pub async fn guard(State(policy): State<Arc<Policy>>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    let size: usize = headers
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len())
        .sum();
    if size > MAX_HEADER_BYTES {
        return error(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!(
                "the request's headers are larger than the {} KiB a request may carry",
                MAX_HEADER_BYTES >> 10
            ),
        )
        .into_response();
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::to_string)
        .or_else(|| request.uri().authority().map(|a| a.to_string()));
    if let Some(host) = &host
        && !policy.serves_host(host)
    {
        return error(
            StatusCode::FORBIDDEN,
            format!(
                "host {:?} is not served here (start the server with --allowed-host {} to serve it)",
                crate::clip::quote(host),
                crate::clip::quote(host_name(host))
            ),
        )
        .into_response();
    }
    let origin = match headers.get(header::ORIGIN).map(|o| o.to_str()) {
        None => None,
        Some(Ok(origin)) => Some(origin.to_string()),
        Some(Err(_)) => Some(String::new()),
    };
    let Some(origin) = origin else {
        return next.run(request).await;
    };
    if !policy.allows_origin(&origin, host.as_deref()) {
        return error(
            StatusCode::FORBIDDEN,
            format!(
                "a request from a page at {:?} is refused (start the server with --cors {} to allow it)",
                crate::clip::quote(&origin),
                crate::clip::quote(&origin)
            ),
        )
        .into_response();
    }
    next.run(request).await
}

/// The CORS answers for the origins given with `--cors`: their preflights answered, their
/// answers marked readable by them (the [`guard`] has refused every other origin before).
pub fn cors(policy: &Policy) -> CorsLayer {
    let origins = policy
        .cors
        .iter()
        .filter_map(|o| HeaderValue::from_str(o).ok());
    CorsLayer::new()
        .allow_origin(AllowOrigin::list(origins))
        .allow_methods([Method::GET, Method::POST])
        .allow_headers([header::CONTENT_TYPE])
        .max_age(std::time::Duration::from_secs(600))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_and_localhost_are_served_other_names_only_when_given() {
        let policy = Policy {
            allowed_hosts: vec!["xq.example".into()],
            cors: vec![],
        };
        for host in [
            "127.0.0.1:8080",
            "127.0.0.1",
            "[::1]:8080",
            "[::1]",
            "192.168.1.5:80",
            "localhost:8080",
            "LOCALHOST",
            "xq.example",
            "XQ.example:443",
        ] {
            assert!(policy.serves_host(host), "{host}");
        }
        for host in ["evil.example", "evil.example:8080", "localhost.evil", ""] {
            assert!(!policy.serves_host(host), "{host}");
        }
    }

    #[test]
    fn its_own_page_and_given_origins_may_call() {
        let policy = Policy {
            allowed_hosts: vec![],
            cors: vec!["https://site.example".into()],
        };
        let host = Some("127.0.0.1:8080");
        assert!(policy.allows_origin("http://127.0.0.1:8080", host));
        assert!(policy.allows_origin("https://site.example", host));
        for origin in [
            "http://evil.example",
            "null",
            "",
            "http://127.0.0.1:9999",
            "https://site.example.evil",
        ] {
            assert!(!policy.allows_origin(origin, host), "{origin}");
        }
        assert!(!policy.allows_origin("http://127.0.0.1:8080", None));
    }
}
