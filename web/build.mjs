// The client's build (docs/client.md, "Types, lint and build"): every page's module entry
// (its <script type="module" src>, found in each .html here, so a new page is built without
// being named) bundled by esbuild into dist/assets with content-hashed names, the modules the
// pages share split into chunks of their own, and each language's catalog a chunk loaded when
// that language is chosen (js/i18n.js). The pages are copied into dist/ with their entry
// replaced by its bundle and a modulepreload link for each chunk it imports at once; the
// server serves dist/ before the sources (server/edge/client_build.py), and only while
// dist/build.json names the sources' fingerprint, so a stale build is never served.
//
//     node build.mjs            # quick when nothing changed (the fingerprint is compared)
//     node build.mjs --force
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const WEB = dirname(fileURLToPath(import.meta.url));
const DIST = join(WEB, "dist");
// built beside dist/ and swapped in whole, so a server starting meanwhile finds one build or
// the other, never half of one
const NEXT = join(WEB, "dist.next");
const OLD = join(WEB, "dist.old");
const ASSETS = "assets"; // under dist/, served at /assets/ with a year's cache (hashed names)
const ENTRY = /<script\b(?=[^>]*\btype="module")[^>]*\bsrc="([^"]+)"[^>]*><\/script>/g;
const IMPORT_MAP = /\s*<script type="importmap">[\s\S]*?<\/script>/;
const PRELOADS = /\s*<!--[^>]*module_graph[\s\S]*?-->|\s*<link rel="modulepreload" href="[^"]*">/g;
const SKIP = new Set(["node_modules", "dist", "dist.next", "dist.old", "tests"]);

/** Every file under `dir` (relative, "/"-separated, sorted), outside node_modules, dist, tests. */
function files(dir = WEB, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name) && dir === WEB) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files(path, out);
    else out.push(relative(WEB, path).split(sep).join("/"));
  }
  return out.sort();
}

/** What the build is made of: the pages, the modules and their catalogs, the libraries' lock.
 * server/edge/client_build.py computes the same: path, NUL, content, NUL for each, sorted. */
export function sourceFiles() {
  return files().filter((f) => f.endsWith(".html") || (f.startsWith("js/") && /\.(js|json)$/.test(f)) || f === "package-lock.json");
}

export function fingerprint() {
  const hash = createHash("sha256");
  for (const f of sourceFiles()) {
    hash.update(f);
    hash.update("\0");
    hash.update(readFileSync(join(WEB, f)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

function built() {
  try {
    return JSON.parse(readFileSync(join(DIST, "build.json"), "utf8"));
  } catch {
    return null;
  }
}

async function build() {
  const { build: esbuild } = await import("esbuild");
  const pages = sourceFiles().filter((f) => f.endsWith(".html"));
  const entries = new Map(); // "/js/app.js" -> its bundle's URL
  const at = (page, src) => new URL(src, `http://client/${page}`).pathname; // a relative src too
  for (const page of pages) {
    for (const [, src] of readFileSync(join(WEB, page), "utf8").matchAll(ENTRY)) entries.set(at(page, src), null);
  }
  rmSync(NEXT, { recursive: true, force: true });
  const result = await esbuild({
    absWorkingDir: WEB,
    entryPoints: [...entries.keys()].map((src) => src.replace(/^\//, "")),
    bundle: true,
    splitting: true,
    format: "esm",
    target: "es2022",
    minify: true,
    sourcemap: "linked",
    outdir: join(NEXT, ASSETS),
    entryNames: "[name]-[hash]",
    chunkNames: "[name]-[hash]",
    metafile: true,
    logLevel: "warning",
  });
  const outputs = result.metafile.outputs;
  const url = (out) => "/" + relative(NEXT, join(WEB, out)).split(sep).join("/");
  const preloads = new Map(); // bundle URL -> the chunks it imports at once
  for (const [out, meta] of Object.entries(outputs)) {
    if (!meta.entryPoint) continue;
    const src = "/" + meta.entryPoint;
    entries.set(src, url(out));
    const seen = new Set();
    const walk = (o) => {
      for (const imp of outputs[o].imports) {
        if (imp.kind !== "import-statement" || seen.has(imp.path)) continue;
        seen.add(imp.path);
        walk(imp.path);
      }
    };
    walk(out);
    preloads.set(url(out), [...seen].map(url));
  }
  for (const page of pages) {
    let html = readFileSync(join(WEB, page), "utf8");
    html = html.replace(IMPORT_MAP, "").replace(PRELOADS, "");
    html = html.replace(ENTRY, (tag, src) => {
      const bundle = entries.get(at(page, src));
      const links = preloads.get(bundle).map((c) => `\n  <link rel="modulepreload" href="${c}">`);
      return `<script type="module" src="${bundle}"></script>${links.join("")}`;
    });
    mkdirSync(dirname(join(NEXT, page)), { recursive: true });
    writeFileSync(join(NEXT, page), html);
  }
  return { pages: pages.length, bundles: Object.keys(outputs).filter((o) => o.endsWith(".js")).length };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sources = fingerprint();
  if (!process.argv.includes("--force") && built()?.sources === sources) {
    console.log("web/dist is up to date");
  } else {
    const made = await build();
    writeFileSync(join(NEXT, "build.json"), JSON.stringify({ sources, ...made }, null, 1) + "\n");
    rmSync(OLD, { recursive: true, force: true });
    if (existsSync(DIST)) renameSync(DIST, OLD);
    renameSync(NEXT, DIST);
    rmSync(OLD, { recursive: true, force: true });
    console.log(`web/dist: ${made.pages} pages, ${made.bundles} scripts`);
  }
}
