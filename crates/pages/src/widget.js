(function () {
  "use strict";
  /*
   * seo-audit score badge. Embed with
   *   <script async src="https://SERVICE/widget.js" data-domain="example.com"></script>
   * Optional attributes: data-color (6 hex digits), data-domain, data-position="inline"
   * (into #svc-widget) or "fixed" (the default), data-brand (white-label text), data-link
   * (http(s) link target), data-size (small | medium | large). An invalid value falls back
   * to the default with a console warning.
   *
   * The whole script is this one function: it defines no global name, builds its markup
   * with createElement/setAttribute/textContent only (attribute values can never become
   * markup), and marks every script tag it has handled so loading it twice adds nothing.
   */
  var MARK = "data-svc-processed";
  var DEFAULT_COLOR = "10b981";
  var DEFAULT_SIZE = "medium";
  var SIZES = { small: [140, 40], medium: [200, 56], large: [300, 80] };
  var HEX6 = /^[0-9a-f]{6}$/;
  var HOST = /^[A-Za-z0-9.-]+$/;
  var MAX_HOST = 253;
  var FIXED_ID = "svc-widget-fixed";

  // Must be read now: document.currentScript is null inside callbacks.
  var current = document.currentScript;

  function warn(message) {
    if (typeof console !== "undefined" && console.warn) {
      console.warn("seo-audit widget: " + message);
    }
  }

  function isWidgetSrc(src) {
    try {
      var path = new URL(src, document.baseURI).pathname;
      return path.slice(-10) === "/widget.js";
    } catch (e) {
      return false;
    }
  }

  // The script tags to handle: our own tag, or, where currentScript is unavailable or not
  // a widget tag (old browsers, code injected by a tag manager), every widget tag not yet
  // handled.
  function pendingScripts() {
    var out = [];
    if (current && current.tagName === "SCRIPT" && isWidgetSrc(current.src)) {
      if (!current.hasAttribute(MARK)) {
        out.push(current);
      }
      return out;
    }
    var all = document.querySelectorAll('script[src*="widget.js"]');
    for (var i = 0; i < all.length; i++) {
      if (!all[i].hasAttribute(MARK) && isWidgetSrc(all[i].src)) {
        out.push(all[i]);
      }
    }
    return out;
  }

  // The service address: the origin of our own src plus any path before /widget.js.
  function serviceBase(src) {
    var url = new URL(src, document.baseURI);
    var path = url.pathname;
    return url.origin + path.slice(0, path.length - "/widget.js".length);
  }

  // A host name as the server's badge::validate_domain takes it, lower-cased, or null:
  // at most 253 characters as given, surrounding ASCII whitespace and one trailing dot
  // dropped, then `localhost` or dot-separated labels of 1-63 letters, digits and hyphens,
  // none starting or ending with a hyphen, the last starting with a letter (so no IP
  // address). Case is folded only after the ASCII check: Unicode lower-casing would turn
  // look-alikes such as the Kelvin sign into ASCII letters.
  function hostName(text) {
    if (typeof text !== "string" || text.length > MAX_HOST) {
      return null;
    }
    var name = text.replace(/^[ \t\n\f\r]+|[ \t\n\f\r]+$/g, "").replace(/\.$/, "");
    if (!name || !HOST.test(name)) {
      return null;
    }
    name = name.toLowerCase();
    if (name === "localhost") {
      return name;
    }
    var labels = name.split(".");
    if (labels.length < 2) {
      return null;
    }
    for (var i = 0; i < labels.length; i++) {
      var l = labels[i];
      if (!l || l.length > 63 || l.charAt(0) === "-" || l.charAt(l.length - 1) === "-") {
        return null;
      }
    }
    if (!/^[a-z]/.test(labels[labels.length - 1])) {
      return null;
    }
    return name;
  }

  function domainOf(script) {
    var given = script.getAttribute("data-domain");
    if (given !== null && given !== "") {
      var d = hostName(given);
      if (d) {
        return d;
      }
      warn("data-domain is not a host name (letters, digits, hyphens and dots; no IP address, scheme, path or port): " +
        given.slice(0, 300));
      return null;
    }
    var host = (location.hostname || "").toLowerCase();
    if (host.indexOf("www.") === 0) {
      host = host.slice(4);
    }
    host = hostName(host);
    if (!host) {
      warn("cannot detect the domain of this page; set data-domain");
      return null;
    }
    return host;
  }

  function httpLink(value) {
    if (!value) {
      return null;
    }
    try {
      var url = new URL(value);
      if (url.protocol === "http:" || url.protocol === "https:") {
        return url.href;
      }
    } catch (e) {
      // Not an absolute URL.
    }
    warn("data-link ignored: only http and https links are allowed");
    return null;
  }

  function options(script) {
    var domain = domainOf(script);
    if (!domain) {
      return null;
    }
    // An attribute that is absent takes its default silently; one that is present but not
    // valid takes it with a warning, as the server would refuse the value.
    var color = DEFAULT_COLOR;
    var givenColor = script.getAttribute("data-color");
    if (givenColor !== null) {
      if (HEX6.test(givenColor.toLowerCase())) {
        color = givenColor.toLowerCase();
      } else {
        warn("data-color must be 6 hex digits without #, such as 2563eb; using " + DEFAULT_COLOR + ": " +
          givenColor.slice(0, 100));
      }
    }
    var size = DEFAULT_SIZE;
    var givenSize = script.getAttribute("data-size");
    if (givenSize !== null) {
      if (Object.prototype.hasOwnProperty.call(SIZES, givenSize)) {
        size = givenSize;
      } else {
        warn("data-size must be small, medium or large; using " + DEFAULT_SIZE + ": " + givenSize.slice(0, 100));
      }
    }
    var position = script.getAttribute("data-position");
    if (position !== null && position !== "inline" && position !== "fixed") {
      warn("data-position must be inline or fixed; using fixed: " + position.slice(0, 100));
    }
    var base = serviceBase(script.src);
    var brand = script.getAttribute("data-brand");
    return {
      base: base,
      domain: domain,
      color: color,
      size: size,
      inline: position === "inline",
      brand: brand ? brand.slice(0, 120) : "",
      href: httpLink(script.getAttribute("data-link")) || base + "/report/" + encodeURIComponent(domain)
    };
  }

  function alreadyThere(container, opts) {
    var links = container.querySelectorAll("a.svc-widget-link");
    for (var i = 0; i < links.length; i++) {
      if (links[i].getAttribute("data-svc-domain") === opts.domain &&
          links[i].getAttribute("data-svc-position") === (opts.inline ? "inline" : "fixed")) {
        return true;
      }
    }
    return false;
  }

  function build(opts) {
    var dims = SIZES[opts.size];
    var wrap = document.createElement("span");
    wrap.setAttribute("class", "svc-widget");
    wrap.setAttribute("style", "display:inline-flex;flex-direction:column;align-items:center;gap:4px;line-height:1");

    var link = document.createElement("a");
    link.setAttribute("href", opts.href);
    link.setAttribute("target", "_blank");
    link.setAttribute("rel", "noopener");
    link.setAttribute("class", "svc-widget-link");
    link.setAttribute("data-svc-domain", opts.domain);
    link.setAttribute("data-svc-position", opts.inline ? "inline" : "fixed");
    link.setAttribute("style", "display:inline-block;line-height:0;border:0");

    var img = document.createElement("img");
    img.setAttribute("src", opts.base + "/api/widget?domain=" + encodeURIComponent(opts.domain) +
      "&color=" + opts.color + "&size=" + opts.size);
    img.setAttribute("alt", "SEO score for " + opts.domain);
    img.setAttribute("width", String(dims[0]));
    img.setAttribute("height", String(dims[1]));
    img.setAttribute("decoding", "async");
    img.setAttribute("style", "display:block;border:0;max-width:none");
    link.appendChild(img);
    wrap.appendChild(link);

    if (opts.brand) {
      var brand = document.createElement("span");
      brand.setAttribute("class", "svc-widget-brand");
      brand.setAttribute("style", "font:12px/1.3 -apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#374151");
      brand.textContent = opts.brand;
      wrap.appendChild(brand);
    }
    return wrap;
  }

  function fixedContainer() {
    var box = document.getElementById(FIXED_ID);
    if (box) {
      return box;
    }
    box = document.createElement("div");
    box.setAttribute("id", FIXED_ID);
    box.setAttribute("style", "position:fixed;right:16px;bottom:16px;z-index:2147483000;display:flex;flex-direction:column;align-items:flex-end;gap:8px");
    document.body.appendChild(box);
    return box;
  }

  function place(opts) {
    var container = opts.inline ? document.getElementById("svc-widget") : (document.body ? fixedContainer() : null);
    if (!container) {
      return false;
    }
    if (!alreadyThere(container, opts)) {
      container.appendChild(build(opts));
    }
    return true;
  }

  // Places the badge now, or once the document is parsed when its container does not exist
  // yet (inline target further down the page, or no body while the head is parsed).
  function placeWhenReady(opts) {
    if (place(opts)) {
      return;
    }
    var retry = function () {
      try {
        if (!place(opts)) {
          warn(opts.inline ? "no element with id svc-widget" : "no document body");
        }
      } catch (e) {
        warn(String(e));
      }
    };
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", retry, { once: true });
    } else if (document.readyState !== "complete") {
      window.addEventListener("load", retry, { once: true });
    } else {
      retry();
    }
  }

  var scripts = pendingScripts();
  for (var i = 0; i < scripts.length; i++) {
    var script = scripts[i];
    script.setAttribute(MARK, "");
    try {
      var opts = options(script);
      if (opts) {
        placeWhenReady(opts);
      }
    } catch (e) {
      // A badge must never break the page that embeds it.
      warn(String(e));
    }
  }
})();
