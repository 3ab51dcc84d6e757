import { execFileSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** The account a server binary runs as: the current user, or a system user when the tests run as root. */
export interface ServerUser {
  name: string;
  uid: number;
  gid: number;
}

/**
 * initdb and postgres refuse to run as root: as root, they run as `postgres` (or `nobody`).
 * Undefined when not root (the servers then run as the current user).
 */
export function serverUser(): ServerUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const id = (flag: string) =>
        Number(
          execFileSync('id', [flag, name], { stdio: ['ignore', 'pipe', 'ignore'] })
            .toString()
            .trim(),
        );
      return { name, uid: id('-u'), gid: id('-g') };
    } catch {
      /* no such user: try the next */
    }
  }
  throw new Error('running as root, and neither a postgres nor a nobody user exists to run PostgreSQL as');
}

/**
 * The first folder on the way to `path` that `user` cannot enter (no search permission for it:
 * a clone inside a mode-0700 folder, /root), or undefined when every one lets it through. The
 * current user (no `user`) is checked with access(2) itself.
 */
export function blockedFolder(path: string, user?: ServerUser): string | undefined {
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    if (user) {
      const { mode, uid, gid } = statSync(dir);
      const bit = uid === user.uid ? 0o100 : gid === user.gid ? 0o010 : 0o001;
      if ((mode & bit) === 0) return dir;
    } else {
      try {
        accessSync(dir, constants.X_OK);
      } catch {
        return dir;
      }
    }
    if (dir === dirname(dir)) return undefined;
  }
}

/** How a command ran, for error messages: `sudo -u postgres /path/initdb -D ...` when run as another user. */
export function commandLine(path: string, args: string[], user?: ServerUser): string {
  const quoted = [path, ...args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`));
  return `${user ? `sudo -u ${user.name} ` : ''}${quoted.join(' ')}`;
}
