// The client's anchor for each cite read as JSON from stdin (web/js/puck-rules.js
// citeAnchor): driven by test_cite_links.py, which holds it to server/rules/cites.py.
import { readFileSync } from "node:fs";
import { citeAnchor } from "../../web/js/puck-rules.js";

const cites = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cites.map((c) => citeAnchor(c))));
