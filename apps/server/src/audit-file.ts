import { createWriteStream, existsSync, mkdirSync, openSync, readdirSync, renameSync, statSync, unlinkSync, type WriteStream } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

/** How `--audit-log-path` rotates (lumberjack's Logger, which kube-apiserver uses). */
export interface RotationOptions {
  /** `--audit-log-maxsize` in megabytes; 0 is lumberjack's default, 100. */
  maxSizeMB: number;
  /** `--audit-log-maxbackup`: rotated files to keep; 0 keeps all. */
  maxBackups: number;
  /** `--audit-log-maxage` in days, by the time in the rotated file's name; 0 keeps all. */
  maxAgeDays: number;
}

const MB = 1024 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;

/** lumberjack's backup time format, `2006-01-02T15-04-05.000`, in UTC. */
const backupTime = (date: Date) => date.toISOString().slice(0, 23).replace(/:/g, '-');
const parseBackupTime = (text: string) => {
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d)-(\d\d)-(\d\d\.\d{3})$/.exec(text);
  return m ? Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`) : NaN;
};

/**
 * An audit log file that rotates as lumberjack does: before a write would take the file past the size limit it
 * is renamed to `<name>-<time><ext>` (audit-2026-11-24T19-21-10.123.log) and a new one started; then backups beyond
 * `maxBackups`, or older than `maxAgeDays` by the time in their names, are removed. Files are created 0600.
 * Writes are buffered by a stream; a rotated stream finishes writing into the renamed file.
 */
export class RotatingFile {
  private stream!: WriteStream;
  private size = 0;
  private readonly maxBytes: number;

  constructor(
    private readonly path: string,
    private readonly options: RotationOptions,
    private readonly onError: (error: Error) => void,
  ) {
    this.maxBytes = (options.maxSizeMB || 100) * MB;
    mkdirSync(dirname(path), { recursive: true });
    this.open();
  }

  write(line: string): void {
    const bytes = Buffer.byteLength(line);
    if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
    this.stream.write(line);
    this.size += bytes;
  }

  close(): Promise<void> {
    return new Promise<void>((done) => this.stream.end(done));
  }

  private open(): void {
    const fd = openSync(this.path, 'a', 0o600);
    this.size = statSync(this.path).size;
    this.stream = createWriteStream(this.path, { fd });
    this.stream.on('error', this.onError);
  }

  private rotate(): void {
    try {
      this.stream.end();
      const ext = extname(this.path);
      // Two rotations in one millisecond must not overwrite the first backup: the later one takes the next free time.
      let backup: string;
      for (let time = Date.now(); ; time++) {
        backup = join(dirname(this.path), `${basename(this.path, ext)}-${backupTime(new Date(time))}${ext}`);
        if (!existsSync(backup)) break;
      }
      renameSync(this.path, backup);
      this.open();
      this.prune();
    } catch (error) {
      this.onError(error as Error);
    }
  }

  /** Removes the backups beyond the count and the age limits, newest kept first. */
  private prune(): void {
    const { maxBackups, maxAgeDays } = this.options;
    if (!maxBackups && !maxAgeDays) return;
    const dir = dirname(this.path);
    const ext = extname(this.path);
    const prefix = `${basename(this.path, ext)}-`;
    const backups = readdirSync(dir)
      .filter((name) => name.startsWith(prefix) && (name.endsWith(ext) || name.endsWith(`${ext}.gz`)))
      .map((name) => ({ name, time: parseBackupTime(name.slice(prefix.length).replace(/\.gz$/, '').slice(0, ext ? -ext.length : undefined)) }))
      .filter((b) => !Number.isNaN(b.time))
      .sort((a, b) => b.time - a.time);
    const cutoff = maxAgeDays ? Date.now() - maxAgeDays * DAY_MS : -Infinity;
    backups.forEach((backup, i) => {
      if ((maxBackups && i >= maxBackups) || backup.time < cutoff) unlinkSync(join(dir, backup.name));
    });
  }
}
