/**
 * Writes `packages/core/config.schema.json` from the zod config schema.
 * Run after changing the schema: `pnpm exec tsx packages/core/scripts/write-config-schema.ts`.
 * `src/config/json-schema.test.ts` fails while the committed file differs.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { configJsonSchemaText } from "../src/config/json-schema.js";

const target = fileURLToPath(new URL("../config.schema.json", import.meta.url));
writeFileSync(target, configJsonSchemaText());
console.log(`wrote ${target}`);
