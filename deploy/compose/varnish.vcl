# Generated from deploy/varnish/default.vcl for deploy/compose.yaml by `npx tsx scripts/write-compose-vcl.ts`; do not edit.
# Backends: site-1 (172.29.180.11:3000), site-2 (172.29.180.12:3000), round-robin; purges also from 172.29.180.0/24.
vcl 4.1;

# The edge in front of the site (docs/decisions/018; docs/operations.md, "Publishing and the
# edge"). It keeps pages and API answers as the service's Cache-Control says (s-maxage, then
# stale-if-error while the service is down), one copy per page variant and encoding, keyed on the
# page's own query parameters, and lets go of what a purge names (Cache-Tag, via the xkey vmod
# from Debian's varnish-modules).
# Media variants are kept one copy per format (AVIF, WebP, JPEG or PNG), a year when their
# address names the original's version (Cache-Control: immutable).
#
# The service must trust this edge (TRUSTED_PROXIES=<this edge's address>) so that it takes the
# page variant from X-Page-Variant and varies on that header instead of the User-Agent; and it
# must know where to send purges (EDGE_PURGE_URLS=http://<this edge>/).

import std;
import xkey;
import directors;

# site-1 in deploy/compose.yaml
backend site_1 {
  .host = "172.29.180.11";
  .port = "3000";
  .connect_timeout = 1s;
  .first_byte_timeout = 15s;
  .between_bytes_timeout = 10s;
  .probe = {
    .url = "/healthz";
    .interval = 1s;
    .timeout = 500ms;
    .window = 3;
    .threshold = 2;
  }
}

# site-2 in deploy/compose.yaml
backend site_2 {
  .host = "172.29.180.12";
  .port = "3000";
  .connect_timeout = 1s;
  .first_byte_timeout = 15s;
  .between_bytes_timeout = 10s;
  .probe = {
    .url = "/healthz";
    .interval = 1s;
    .timeout = 500ms;
    .window = 3;
    .threshold = 2;
  }
}

# Each request goes to the next healthy instance.
sub vcl_init {
  new sites = directors.round_robin();
  sites.add_backend(site_1);
  sites.add_backend(site_2);
}

sub vcl_recv {
  set req.backend_hint = sites.backend();
}

# Who may purge: the service's instances. Anyone else gets 403.
acl purgers {
  "127.0.0.1";
  "::1";
  "172.29.180.0"/24;
}

sub vcl_recv {
  if (req.method == "PURGE") {
    if (client.ip !~ purgers) {
      return (synth(403, "Forbidden"));
    }
    if (!req.http.x-purge-tags) {
      return (synth(400, "X-Purge-Tags is required"));
    }
    # Soft: what was purged is not served while the service is up, but stands in if it is down.
    set req.http.x-purged = xkey.softpurge(req.http.x-purge-tags);
    return (synth(200, "Purged " + req.http.x-purged));
  }
  # The page variant is the edge's to say (below), never the client's: not even on what is passed.
  unset req.http.x-page-variant;
  if (req.method != "GET" && req.method != "HEAD") {
    return (pass);
  }
  # What operators read is scraped from the service itself, never through the edge.
  if (req.url ~ "^/(metrics|status)(\?|/|$)") {
    return (synth(404, "Not Found"));
  }
  # What a visitor sends for itself: never stored, never shared.
  if (req.url ~ "^/(admin/|text-size|a11y(\?|$)|healthz|readyz)") {
    return (pass);
  }
  unset req.http.x-encoding;

  if (req.url ~ "^/_media(/|\?|$)") {
    call media_accept;
  } elsif (req.url !~ "^/(api|assets|media)/") {
    call page_query;
    call page_variant;
  }
  set req.url = std.querysort(req.url);
  # No cookie matters to a stored page once the variant is known, and none to an API answer.
  unset req.http.cookie;
  # Nor does the Origin: an API answer is readable from any origin (Access-Control-Allow-Origin: *)
  # and never varies on it, so one stored copy serves every caller (docs/decisions/024).

  # One copy per encoding the service makes: brotli, gzip, or none (images are sent as they are).
  if (req.url ~ "^/_media/") {
    set req.http.x-encoding = "identity";
  } elsif (req.http.accept-encoding ~ "\bbr\b") {
    set req.http.x-encoding = "br";
  } elsif (req.http.accept-encoding ~ "\bgzip\b") {
    set req.http.x-encoding = "gzip";
  } else {
    set req.http.x-encoding = "identity";
  }

  # While the service is up it answers a stale page or answer from its own caches, and a purged
  # copy must never be served again; while it is down, anything within stale-if-error stands in.
  if (std.healthy(req.backend_hint)) {
    set req.grace = 0s;
  }
  return (hash);
}

# The page variant (server/render/page-variant.ts, docs/decisions/066): the large-text mode from
# its cookie, else the scaling mode from the browser's family; then the theme the visitor chose
# (+contrast, +plain) and the large cursor (+cursor), each from its cookie, in that order. At most
# 18 names, each a copy of its own; the raw User-Agent and the cookies themselves are never a key.
sub page_variant {
  if (req.http.cookie ~ "(^|;\s*)textsize=large(;|$)") {
    set req.http.x-page-variant = "large";
  } elsif (req.http.user-agent ~ "(?i)(firefox|fxios|\bedge?/|edgios|edga/|\bopr/|\bopera|opios|opt/)") {
    set req.http.x-page-variant = "transform";
  } else {
    set req.http.x-page-variant = "zoom";
  }
  if (req.http.cookie ~ "(^|;\s*)theme=contrast(;|$)") {
    set req.http.x-page-variant = req.http.x-page-variant + "+contrast";
  } elsif (req.http.cookie ~ "(^|;\s*)theme=plain(;|$)") {
    set req.http.x-page-variant = req.http.x-page-variant + "+plain";
  }
  if (req.http.cookie ~ "(^|;\s*)cursor=large(;|$)") {
    set req.http.x-page-variant = req.http.x-page-variant + "+cursor";
  }
}

# Media variants (/_media/, docs/decisions/023) vary on Accept, and the service makes three
# formats: the header is reduced to the one that decides, so that an address has at most three
# copies here whatever browsers send. A format counts when named without q=0, as the service reads it.
sub media_accept {
  if (req.http.accept ~ "(?i)image/avif(?!\s*;\s*q\s*=\s*0(\.0*)?\s*(,|$))") {
    set req.http.accept = "image/avif";
  } elsif (req.http.accept ~ "(?i)image/webp(?!\s*;\s*q\s*=\s*0(\.0*)?\s*(,|$))") {
    set req.http.accept = "image/webp";
  } else {
    set req.http.accept = "*/*";
  }
}

# The query parameters each page reads (shared/site/route-table.ts); every other one is dropped, so
# that marketing parameters and made-up ones do not make copies of a page.
# BEGIN page_query: generated by `npm run vcl:routes`; do not edit
sub page_query {
  if (req.url ~ "^/(\?|$)") {
    set req.url = regsub(req.url, "\?.*$", "");
  } elsif (req.url ~ "^/jtjj/qywh/?(\?|$)") {
    set req.url = regsub(req.url, "\?.*$", "");
  } elsif (req.url ~ "^/jtjj/fzlc/?(\?|$)") {
    set req.url = regsub(req.url, "\?.*$", "");
  } elsif (req.url ~ "^/jtjj/ryjx/?(\?|$)") {
    set req.url = regsub(req.url, "\?.*$", "");
  } elsif (req.url ~ "^/jtjj/qyhcp/?(\?|$)") {
    set req.url = regsub(req.url, "\?.*$", "");
  } elsif (req.url ~ "^/hzhf/tszl/?(\?|$)") {
    set req.url = regsuball(req.url, "([?&])(?!(?:title)=)[^&]*", "\1");
  } elsif (req.url ~ "^/hzhf/kpzs/?(\?|$)") {
    set req.url = regsuball(req.url, "([?&])(?!(?:page)=)[^&]*", "\1");
    set req.url = regsuball(req.url, "([?&])page=1(?=&|$)", "\1");
  } elsif (req.url ~ "^/hzhf/kpzsDetail/?(\?|$)") {
    set req.url = regsuball(req.url, "([?&])(?!(?:id)=)[^&]*", "\1");
  } elsif (req.url ~ "^/hzhf/zlsb/?(\?|$)") {
    set req.url = regsuball(req.url, "([?&])(?!(?:page)=)[^&]*", "\1");
    set req.url = regsuball(req.url, "([?&])page=1(?=&|$)", "\1");
  } elsif (req.url ~ "^/gjws/index/?(\?|$)") {
    set req.url = regsub(req.url, "\?.*$", "");
  } elsif (req.url ~ "^/zjxz/index/?(\?|$)") {
    set req.url = regsuball(req.url, "([?&])(?!(?:hospital|specialty|page)=)[^&]*", "\1");
    set req.url = regsuball(req.url, "([?&])page=1(?=&|$)", "\1");
  } elsif (req.url ~ "^/zjxz/detail/?(\?|$)") {
    set req.url = regsuball(req.url, "([?&])(?!(?:id)=)[^&]*", "\1");
  } elsif (req.url ~ "^/xsyj/xsyj/?(\?|$)") {
    set req.url = regsuball(req.url, "([?&])(?!(?:page)=)[^&]*", "\1");
    set req.url = regsuball(req.url, "([?&])page=1(?=&|$)", "\1");
  } elsif (req.url ~ "^/xsyj/ykxs/?(\?|$)") {
    set req.url = regsuball(req.url, "([?&])(?!(?:page)=)[^&]*", "\1");
    set req.url = regsuball(req.url, "([?&])page=1(?=&|$)", "\1");
  } elsif (req.url ~ "^/xsyj/jyxw/?(\?|$)") {
    set req.url = regsuball(req.url, "([?&])(?!(?:sub|page)=)[^&]*", "\1");
    set req.url = regsuball(req.url, "([?&])page=1(?=&|$)", "\1");
  } elsif (req.url ~ "^/xsyj/kyxw/?(\?|$)") {
    set req.url = regsuball(req.url, "([?&])(?!(?:sub|page)=)[^&]*", "\1");
    set req.url = regsuball(req.url, "([?&])page=1(?=&|$)", "\1");
  } elsif (req.url ~ "^/news/index/?(\?|$)") {
    set req.url = regsuball(req.url, "([?&])(?!(?:id|page)=)[^&]*", "\1");
    set req.url = regsuball(req.url, "([?&])page=1(?=&|$)", "\1");
  } elsif (req.url ~ "^/gnyy/index/?(\?|$)") {
    set req.url = regsuball(req.url, "([?&])(?!(?:page)=)[^&]*", "\1");
    set req.url = regsuball(req.url, "([?&])page=1(?=&|$)", "\1");
  } elsif (req.url ~ "^/gnyy/yyxq/?(\?|$)") {
    set req.url = regsuball(req.url, "([?&])(?!(?:id)=)[^&]*", "\1");
  } elsif (req.url ~ "^/gnyy/detail/?(\?|$)") {
    set req.url = regsuball(req.url, "([?&])(?!(?:id)=)[^&]*", "\1");
  } elsif (req.url ~ "^/lxwm/index/?(\?|$)") {
    set req.url = regsub(req.url, "\?.*$", "");
  } elsif (req.url ~ "^/wza/index/?(\?|$)") {
    set req.url = regsub(req.url, "\?.*$", "");
  } elsif (req.url ~ "^/search/?(\?|$)") {
    set req.url = regsuball(req.url, "([?&])(?!(?:q|kind|page)=)[^&]*", "\1");
    set req.url = regsuball(req.url, "([?&])page=1(?=&|$)", "\1");
  }
  set req.url = regsuball(req.url, "&&+", "&");
  set req.url = regsub(req.url, "\?&+", "?");
  set req.url = regsub(req.url, "[?&]+$", "");
}
# END page_query

sub vcl_hash {
  hash_data(req.http.x-encoding);
}

sub vcl_backend_fetch {
  set bereq.http.accept-encoding = bereq.http.x-encoding;
  unset bereq.http.x-encoding;
}

sub vcl_backend_response {
  # A page varied on the raw User-Agent would be kept once per browser build: not at all, then.
  # (The service varies on it when it does not trust this edge: see TRUSTED_PROXIES above.)
  if (beresp.http.vary ~ "(?i)user-agent") {
    std.log("not stored: varies on User-Agent; is this edge in the service's TRUSTED_PROXIES?");
    set beresp.uncacheable = true;
    return (deliver);
  }
  # The tags a purge names, space-separated for xkey.
  if (beresp.http.cache-tag) {
    set beresp.http.xkey = regsuball(beresp.http.cache-tag, ",\s*", " ");
  }
  # Stale copies are kept for the service's stale-if-error window (its s-maxage is the TTL).
  if (beresp.http.cache-control ~ "stale-if-error=\d+") {
    set beresp.grace = std.duration(regsub(beresp.http.cache-control, "^.*stale-if-error=(\d+).*$", "\1s"), 0s);
  }
  # Kept a while longer still, so that a copy can be revalidated with its ETag (a 304).
  set beresp.keep = 1h;
  # A failed background refresh leaves the stale copy in place.
  if (beresp.status >= 500 && bereq.is_bgfetch) {
    return (abandon);
  }
}

sub vcl_deliver {
  if (obj.hits > 0) {
    set resp.http.x-edge = "HIT";
  } else {
    set resp.http.x-edge = "MISS";
  }
  unset resp.http.xkey;
  # Browsers vary on what they send; this edge already chose the variant and the encoding.
  if (resp.http.vary ~ "(?i)x-page-variant") {
    set resp.http.vary = "Accept-Encoding, Cookie, User-Agent";
  }
}
