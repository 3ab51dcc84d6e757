/** A one-line progress bar on stderr (redrawn in place on a terminal, a line per 10 % otherwise). */
export class ProgressBar {
  private readonly started = Date.now();
  private lastDecile = -1;
  private readonly tty = process.stderr.isTTY === true;

  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly width = 30,
  ) {}

  update(done: number): void {
    const ratio = this.total === 0 ? 1 : Math.min(1, done / this.total);
    const filled = Math.round(ratio * this.width);
    const elapsed = (Date.now() - this.started) / 1000;
    const rate = elapsed > 0 ? done / elapsed : 0;
    const eta = rate > 0 ? (this.total - done) / rate : 0;
    const line =
      `${this.label} [${'#'.repeat(filled)}${'.'.repeat(this.width - filled)}] ` +
      `${(ratio * 100).toFixed(0).padStart(3)}% ${done.toLocaleString('en-US')}/${this.total.toLocaleString('en-US')} ` +
      `${elapsed.toFixed(1)}s${done < this.total ? ` eta ${eta.toFixed(0)}s` : ''}`;
    if (this.tty) {
      process.stderr.write(`\r${line}\x1b[K`);
    } else {
      const decile = Math.floor(ratio * 10);
      if (decile !== this.lastDecile) {
        this.lastDecile = decile;
        process.stderr.write(`${line}\n`);
      }
    }
  }

  done(): void {
    this.update(this.total);
    if (this.tty) process.stderr.write('\n');
  }
}
