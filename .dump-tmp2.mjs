import fs from "node:fs";
import { buildClientSchema, isObjectType, isInterfaceType, isInputObjectType } from "graphql";
const j = JSON.parse(fs.readFileSync(".cache/shopify/admin-2026-10.json","utf8"));
const s = buildClientSchema(j.data);
for (const n of process.argv.slice(2)) {
  if (n.includes(".")) { const [t,f]=n.split("."); const fd=s.getType(t).getFields()[f]; console.log(n, "(", fd.args.map(a=>`${a.name}: ${a.type}${a.defaultValue!==undefined?"="+JSON.stringify(a.defaultValue):""}`).join(", "), "):", String(fd.type), fd.deprecationReason?"DEPRECATED":""); continue; }
  const t = s.getType(n); if(!t){console.log("MISSING",n);continue;}
  if (isObjectType(t)||isInterfaceType(t)||isInputObjectType(t)) console.log(n, (t.getInterfaces?.()??[]).map(String), "\n  " + Object.values(t.getFields()).map(f=>`${f.name}${f.args?.length?"("+f.args.map(a=>a.name).join(",")+")":""}: ${f.type}${f.deprecationReason?" [dep]":""}`).join("\n  "));
  else console.log(n, t.toString());
}
