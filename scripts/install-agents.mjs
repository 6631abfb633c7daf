#!/usr/bin/env node
// Installs the real agent CLIs the real-agent test tier runs (`pnpm test:agents`), at the
// versions pinned in test/agents/agent-versions.json, from the npm registry into a cache folder
// outside the workspace's own install: .cache/agents/<name>@<version>/ (git-ignored). A version
// already installed there, with its binary answering `--version`, is reused. Any install that
// fails ends the script with a non-zero code: the tier never runs without its binaries.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const pins = JSON.parse(await readFile(join(root, "test/agents/agent-versions.json"), "utf8"));
const cache = join(root, ".cache/agents");
/** How many installs run at once (each is a few hundred MB of native binary). */
const PARALLEL = 3;
/** One install's bound: the registry is the only network here, and it answers or refuses. */
const INSTALL_TIMEOUT_MS = 15 * 60_000;

function run(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: -1, output: `${output}${error.message}` });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** The binary answers `--version` with the pinned version. */
async function answers(bin, version, home) {
  if (!existsSync(bin)) return { ok: false, output: `${bin} does not exist` };
  const env = { ...process.env, HOME: home, NO_COLOR: "1" };
  const result = await run(bin, ["--version"], { env, timeoutMs: 60_000 });
  return { ok: result.code === 0 && result.output.includes(version), output: result.output };
}

async function install({ name, packageName, binName, version }) {
  const folder = join(cache, `${name}@${version}`);
  const bin = join(folder, "node_modules/.bin", binName);
  const marker = join(folder, "installed.json");
  const home = join(folder, "home");
  if (existsSync(marker)) {
    const check = await answers(bin, version, home);
    if (check.ok) return { name, version, bin, reused: true };
  }
  await rm(folder, { recursive: true, force: true });
  await mkdir(home, { recursive: true });
  await writeFile(join(folder, "package.json"), `${JSON.stringify({ private: true }, null, 2)}\n`);
  const spec = `${packageName}@${version}`;
  const result = await run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error", spec],
    { cwd: folder, env: process.env, timeoutMs: INSTALL_TIMEOUT_MS },
  );
  if (result.code !== 0) {
    throw new Error(`npm install ${spec} failed (exit ${result.code}):\n${result.output.trim()}`);
  }
  const check = await answers(bin, version, home);
  if (!check.ok) {
    throw new Error(
      `${spec} installed, but \`${binName} --version\` did not answer ${version}:\n${check.output.trim()}`,
    );
  }
  await writeFile(marker, `${JSON.stringify({ package: packageName, version }, null, 2)}\n`);
  return { name, version, bin, reused: false };
}

const jobs = Object.entries(pins.agents).flatMap(([name, entry]) =>
  entry.versions.map((version) => ({
    name,
    packageName: entry.package,
    binName: entry.bin,
    version,
  })),
);
const failures = [];
const queue = [...jobs];
await Promise.all(
  Array.from({ length: PARALLEL }, async () => {
    for (let job = queue.shift(); job !== undefined; job = queue.shift()) {
      try {
        const done = await install(job);
        console.log(`${done.reused ? "reused   " : "installed"} ${job.packageName}@${job.version}`);
      } catch (error) {
        failures.push(`${job.packageName}@${job.version}: ${error.message}`);
      }
    }
  }),
);
if (failures.length > 0) {
  console.error(`\nThe real-agent tier cannot run: ${failures.length} CLI(s) did not install.\n`);
  for (const failure of failures) console.error(`- ${failure}\n`);
  process.exit(1);
}
