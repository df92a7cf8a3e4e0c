import cliProgress from 'cli-progress';
import type { CliIo } from './io';

/** What the server reported: `progress` of `total` (when known), and a message. */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * Shows a request's progress as a live bar on stderr (cli-progress) when stderr is a terminal; else as one line per
 * update, so a log keeps them. Nothing when `quiet` (`--json` keeps stderr for diagnostics only).
 */
export class ProgressDisplay {
  readonly #io: CliIo;
  readonly #quiet: boolean;
  #bar: cliProgress.SingleBar | undefined;

  constructor(io: CliIo, quiet: boolean) {
    this.#io = io;
    this.#quiet = quiet;
  }

  update({ progress, total, message }: ProgressUpdate): void {
    if (this.#quiet) return;
    if (!this.#io.stderrIsTerminal) {
      this.#io.stderr.write(
        `progress ${progress}${total === undefined ? '' : `/${total}`}${message ? ` ${message}` : ''}\n`,
      );
      return;
    }
    if (this.#bar === undefined) {
      this.#bar = new cliProgress.SingleBar(
        {
          stream: this.#io.stderr,
          format: 'progress [{bar}] {value}/{total} {message}',
          hideCursor: true,
          clearOnComplete: false,
          // A server that sends no total still moves the bar: the total grows with the progress.
          etaBuffer: 1,
        },
        cliProgress.Presets.shades_classic,
      );
      this.#bar.start(total ?? Math.max(progress, 1), progress, { message: message ?? '' });
      return;
    }
    if (total !== undefined) this.#bar.setTotal(total);
    else if (progress > this.#bar.getTotal()) this.#bar.setTotal(progress);
    this.#bar.update(progress, { message: message ?? '' });
  }

  /** Ends the bar (leaving its last state on screen). */
  stop(): void {
    this.#bar?.stop();
    this.#bar = undefined;
  }
}
