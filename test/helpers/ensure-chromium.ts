/**
 * Makes sure Debian's `chromium` is installed for the browser tests (issue 3: "installed by the
 * project's own test setup when missing"). We drive the system browser with playwright-core and
 * never let Playwright download one: a distribution package gets security updates and works
 * offline behind a package mirror. Installs with apt-get as root, else through sudo when present;
 * anything else fails with the command to run by hand.
 *
 *   npx tsx test/helpers/ensure-chromium.ts     # install if missing, print the path
 */
import { execFileSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { fileURLToPath } from "node:url";

/** Where Debian puts the browser; CHROMIUM_PATH points elsewhere (another distribution, a local build). */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/** The flags of the machine notes: headless, no sandbox (containers), and no traffic of its own. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findSudo(): string | null {
  for (const path of ["/usr/bin/sudo", "/bin/sudo"]) if (isExecutable(path)) return path;
  return null;
}

/** Runs apt-get, as root or through non-interactive sudo; throws with its output on failure. */
function runAptGet(args: string[]): void {
  const isRoot = process.getuid?.() === 0;
  const sudo = isRoot ? null : findSudo();
  if (!isRoot && !sudo) throw new Error("not root and no sudo");
  const [command, commandArgs] = isRoot ? ["apt-get", args] : [sudo!, ["-n", "apt-get", ...args]];
  execFileSync(command, commandArgs, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** The browser's path, installing the package first when it is missing. */
export function ensureChromium(): string {
  if (isExecutable(CHROMIUM_PATH)) return CHROMIUM_PATH;
  if (process.env.CHROMIUM_PATH) throw new Error(`CHROMIUM_PATH=${CHROMIUM_PATH} is not an executable file`);
  try {
    try {
      runAptGet(["install", "-y", "chromium"]);
    } catch {
      // Stale or missing package lists are the usual cause on a fresh container: refresh once.
      runAptGet(["update"]);
      runAptGet(["install", "-y", "chromium"]);
    }
  } catch (error) {
    const output = error instanceof Error && "stderr" in error ? String((error as { stderr: unknown }).stderr).trim().slice(-2000) : String(error);
    throw new Error(
      `The browser tests need Debian's chromium at ${CHROMIUM_PATH} and installing it failed.\n` +
        `Install it yourself (sudo apt-get install -y chromium) or set CHROMIUM_PATH.\n${output}`,
    );
  }
  if (!isExecutable(CHROMIUM_PATH)) throw new Error(`apt-get installed chromium but ${CHROMIUM_PATH} is still missing`);
  return CHROMIUM_PATH;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    console.log(ensureChromium());
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
