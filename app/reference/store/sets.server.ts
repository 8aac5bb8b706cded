// Carrier reference data as our database keeps it: one set for the deployment (ReferenceSet, keyed by its
// source, REFERENCE_SOURCE), since the data is the carrier's, public, and the same whatever warehouse key
// asked for it (decision 020; it was one set per key, a copy per shop). Written by the refresh
// (app/reference/refresh.server.ts), one shop's at a time; read into an in-memory search
// (app/reference/search/) that each process builds once per version of the set (searches.server.ts). The
// functions take the source, so tests can keep sets apart.
//
// Replacing a set never shows a reader half of one. The new rows are upserted in batches, each its own short
// transaction (SQLite has one writer: 50,000 rows in one transaction would hold every webhook for seconds);
// then, in one transaction, the rows this save did not see are deleted and the set's version is bumped. A
// reader between the two sees the old set with some rows already updated in place and none missing (a
// superset); the bump makes every process rebuild from the finished set. A set is read only once it has a
// version (its first save finished), so a first save half-written is never searched.
import type { Db } from "../../db.server";
import { insertStatement, sqlQuery, sqlTransaction, type SqlArg } from "../../db/sql.server";
import type { CarrierBranch, CarrierCity } from "../types";

/** Rows per INSERT: 13 columns × 500 stays far below SQLite's and PostgreSQL's limits on arguments. */
const BATCH = 500;

export interface ReferenceData {
  cities: readonly CarrierCity[];
  branches: readonly CarrierBranch[];
}

/** What a save stored (the set's counts) and its new version. */
export interface SavedReferenceSet {
  version: number;
  cityCount: number;
  branchCount: number;
}

/**
 * Stores `data` as the whole set of the source: its cities and branches written (batched upserts), those
 * not among them removed, the version bumped, the refresh time set and the last error cleared. Cities
 * getCities described keep their Russian name, region, kind and when they were described.
 */
export async function saveReferenceSet(
  db: Db,
  source: string,
  data: ReferenceData,
  now: Date,
): Promise<SavedReferenceSet> {
  // The rows this save did not see are those stamped before it: the stamp must come after the last save's,
  // whatever the clocks of the processes that made them.
  const last = await db.referenceSet.findUnique({ where: { source }, select: { refreshedAt: true } });
  const stamp = last?.refreshedAt && last.refreshedAt >= now ? new Date(last.refreshedAt.getTime() + 1) : now;
  const cities = [...new Map(data.cities.map((city) => [city.ref, city])).values()];
  const branches = [...new Map(data.branches.map((branch) => [branch.ref, branch])).values()];
  const branchCounts = new Map<string, number>();
  for (const branch of branches)
    branchCounts.set(branch.cityRef, (branchCounts.get(branch.cityRef) ?? 0) + 1);
  for (let start = 0; start < cities.length; start += BATCH) {
    const rows = cities
      .slice(start, start + BATCH)
      .map((city) => cityRow(source, city, stamp, branchCounts.get(city.ref) ?? 0));
    const { sql, args } = insertStatement("CarrierCity", rows);
    await sqlTransaction(db, (tx) =>
      tx.execute(
        `${sql} ON CONFLICT ("source", "ref") DO UPDATE SET "name" = excluded."name",
           "nameRu" = COALESCE(excluded."nameRu", "CarrierCity"."nameRu"),
           "area" = COALESCE(excluded."area", "CarrierCity"."area"),
           "kind" = COALESCE(excluded."kind", "CarrierCity"."kind"),
           "describedAt" = COALESCE(excluded."describedAt", "CarrierCity"."describedAt"),
           "seenAt" = excluded."seenAt", "branchCount" = excluded."branchCount"`,
        args,
      ),
    );
  }
  for (let start = 0; start < branches.length; start += BATCH) {
    const rows = branches.slice(start, start + BATCH).map((branch) => branchRow(source, branch, stamp));
    const { sql, args } = insertStatement("CarrierBranch", rows);
    const updates = Object.keys(rows[0]!)
      .filter((column) => column !== "source" && column !== "ref")
      .map((column) => `"${column}" = excluded."${column}"`)
      .join(", ");
    await sqlTransaction(db, (tx) =>
      tx.execute(`${sql} ON CONFLICT ("source", "ref") DO UPDATE SET ${updates}`, args),
    );
  }
  const version = await sqlTransaction(db, async (tx) => {
    await tx.execute(`DELETE FROM "CarrierBranch" WHERE "source" = ? AND "seenAt" < ?`, [source, stamp]);
    await tx.execute(`DELETE FROM "CarrierCity" WHERE "source" = ? AND "seenAt" < ?`, [source, stamp]);
    return bumpVersion(tx, source, {
      refreshedAt: stamp,
      cityCount: cities.length,
      branchCount: branches.length,
      lastError: null,
      dueAt: null,
      updatedAt: stamp,
    });
  });
  return { version, cityCount: cities.length, branchCount: branches.length };
}

/** Makes the set's version one more (creating the row at version 1), with `fields`; answers the version. */
async function bumpVersion(
  tx: { query(sql: string, args?: readonly SqlArg[]): Promise<Record<string, unknown>[]> },
  source: string,
  fields: Record<string, SqlArg>,
): Promise<number> {
  const columns = Object.keys(fields);
  const { sql, args } = insertStatement("ReferenceSet", [{ source, version: 1, ...fields }]);
  const [row] = await tx.query(
    `${sql} ON CONFLICT ("source") DO UPDATE SET "version" = "ReferenceSet"."version" + 1,
       ${columns.map((column) => `"${column}" = excluded."${column}"`).join(", ")}
     RETURNING "version"`,
    args,
  );
  return Number(row!.version);
}

function cityRow(source: string, city: CarrierCity, now: Date, branchCount: number): Record<string, SqlArg> {
  const described = city.nameRu !== undefined || city.area !== undefined || city.kind !== undefined;
  return {
    source,
    ref: city.ref,
    name: city.name,
    nameRu: city.nameRu ?? null,
    area: city.area ?? null,
    kind: city.kind ?? null,
    describedAt: described ? now : null,
    seenAt: now,
    branchCount,
  };
}

function branchRow(source: string, branch: CarrierBranch, now: Date): Record<string, SqlArg> {
  return {
    source,
    ref: branch.ref,
    cityRef: branch.cityRef,
    number: branch.number,
    category: branch.kind,
    description: branch.description,
    descriptionRu: branch.descriptionRu ?? null,
    shortAddress: branch.shortAddress ?? null,
    postcode: branch.postcode ?? null,
    maxWeightKg: branch.maxWeightKg ?? null,
    working: branch.working,
    seenAt: now,
  };
}

/**
 * getCities' answer for `asked` kept on the set's cities it names (their Russian name, region and kind); the
 * set's cities of that name are described then even when the answer left them out (the warehouse caps its
 * answers), so the refresh goes on to the next name. Cities not in the set are not added: they have no
 * branches. `bump`: make the set's version one more, so searches rebuild with the new names (the refresh does
 * it every so many answers rather than each). Answers the number of cities described.
 */
export async function describeCities(
  db: Db,
  source: string,
  asked: string,
  described: readonly CarrierCity[],
  now: Date,
  bump: boolean,
): Promise<number> {
  return sqlTransaction(db, async (tx) => {
    let count = 0;
    for (const city of described) {
      count += await tx.execute(
        `UPDATE "CarrierCity" SET "nameRu" = ?, "area" = ?, "kind" = ?, "describedAt" = ?
         WHERE "source" = ? AND "ref" = ?`,
        [city.nameRu ?? null, city.area ?? null, city.kind ?? null, now, source, city.ref],
      );
    }
    count += await tx.execute(
      `UPDATE "CarrierCity" SET "describedAt" = ?
       WHERE "source" = ? AND "name" = ? AND "describedAt" IS NULL`,
      [now, source, asked],
    );
    if (bump) {
      await tx.execute(
        `UPDATE "ReferenceSet" SET "version" = "version" + 1, "updatedAt" = ? WHERE "source" = ?`,
        [now, source],
      );
    }
    return count;
  });
}

/** The set's standing for the Settings page; null when there is none yet. */
export async function referenceSetStatus(db: Db, source: string) {
  const set = await db.referenceSet.findUnique({ where: { source } });
  // A row made only for a refresh's claim holds no data and no problem yet.
  if (!set || (set.refreshedAt === null && set.lastError === null)) return null;
  const undescribed = await db.carrierCity.count({ where: { source, describedAt: null } });
  return {
    cityCount: set.cityCount,
    branchCount: set.branchCount,
    undescribedCities: undescribed,
    refreshedAt: set.refreshedAt,
    lastError: set.lastError,
    version: set.version,
  };
}
/**
 * Keeps what kept the set's refresh from finishing, for Settings (read back with readTexts: a warehouse's
 * failure as Messages, writeTexts; other problems and older rows in English); null clears it.
 */
export async function recordReferenceProblem(db: Db, source: string, problem: string | null, now: Date) {
  await db.referenceSet.upsert({
    where: { source },
    create: { source, lastError: problem, updatedAt: now },
    update: { lastError: problem },
  });
}

/**
 * The source's cities and branches from the database, as the search takes them. Plain SQL (sqlQuery): Prisma's
 * conversion of 50,000 rows took several times as long as reading them.
 */
export async function loadReferenceData(
  db: Db,
  source: string,
): Promise<{ cities: CarrierCity[]; branches: CarrierBranch[] }> {
  const cityRows = await sqlQuery(
    db,
    `SELECT "ref", "name", "nameRu", "area", "kind" FROM "CarrierCity" WHERE "source" = ?`,
    [source],
  );
  const branchRows = await sqlQuery(
    db,
    `SELECT "ref", "cityRef", "number", "category", "description", "descriptionRu", "shortAddress",
       "postcode", "maxWeightKg", "working"
     FROM "CarrierBranch" WHERE "source" = ?`,
    [source],
  );
  return {
    cities: cityRows.map((row) => ({
      ref: String(row.ref),
      name: String(row.name),
      nameRu: optionalText(row.nameRu),
      area: optionalText(row.area),
      kind: optionalText(row.kind),
    })),
    branches: branchRows.map((row) => ({
      ref: String(row.ref),
      cityRef: String(row.cityRef),
      number: String(row.number),
      kind: row.category === "postomat" || row.category === "branch" ? row.category : "store",
      description: String(row.description),
      descriptionRu: optionalText(row.descriptionRu),
      shortAddress: optionalText(row.shortAddress),
      postcode: optionalText(row.postcode),
      maxWeightKg:
        row.maxWeightKg === null || row.maxWeightKg === undefined ? undefined : Number(row.maxWeightKg),
      // SQLite answers 0 and 1, PostgreSQL a boolean.
      working: row.working === true || Number(row.working) === 1,
    })),
  };
}

function optionalText(value: unknown): string | undefined {
  return value === null || value === undefined ? undefined : String(value);
}
