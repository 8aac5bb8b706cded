import fs from "node:fs";
import { buildClientSchema, printType } from "graphql";
const j = JSON.parse(fs.readFileSync(".cache/shopify/admin-2026-10.json","utf8"));
const s = buildClientSchema(j.data);
for (const n of process.argv.slice(2)) { const t = s.getType(n); console.log(t ? printType(t) : "MISSING "+n); }
