/**
 * The best candidate of each profile kind seen so far in one match. Besides the top five, the
 * confidence needs the best candidate of another kind than the answer's (confidence.ts), which
 * may rank far below the top five: the matcher keeps reading lists while a profile there could
 * still become it, and `couldBeRival` says when none can.
 *
 * Candidates compare as in the top list: higher fit first, then the better rank (lower position).
 * Each kind's best only improves during a match, and so does the second-best kind's; that is what
 * lets the matcher skip a profile for good once it cannot beat them.
 */
import { PROFILE_KINDS } from "./types.ts";

const KIND_COUNT = PROFILE_KINDS.length;

export interface KindLeader {
  position: number;
  fit: number;
  /** The candidate's matched key mask. */
  matched: number;
}

export class KindLeaders {
  private readonly fits = new Float64Array(KIND_COUNT);
  private readonly positions = new Int32Array(KIND_COUNT);
  private readonly matched = new Int32Array(KIND_COUNT);
  /** Kinds holding the best and the second-best candidate, -1 while there is none. */
  leadingKind = -1;
  private secondKind = -1;

  reset(): void {
    this.fits.fill(-1);
    this.leadingKind = -1;
    this.secondKind = -1;
  }

  offer(kind: number, fit: number, position: number, matched: number): void {
    if (!this.beats(fit, position, kind)) return;
    this.fits[kind] = fit;
    this.positions[kind] = position;
    this.matched[kind] = matched;
    let first = -1, second = -1;
    for (let k = 0; k < KIND_COUNT; k++) {
      if (this.fits[k]! < 0) continue;
      if (first < 0 || this.beats(this.fits[k]!, this.positions[k]!, first)) {
        second = first;
        first = k;
      } else if (second < 0 || this.beats(this.fits[k]!, this.positions[k]!, second)) second = k;
    }
    this.leadingKind = first;
    this.secondKind = second;
  }

  /**
   * Whether a candidate of fit at most `fit` at `position`, of a kind other than the leading one,
   * could still be the best of a kind other than the answer's: it must beat the second-best kind.
   */
  couldBeRival(fit: number, position: number): boolean {
    return this.secondKind < 0 || this.beats(fit, position, this.secondKind);
  }

  /** The best candidate of any kind but `kind`, or null when only `kind` has candidates. */
  getBestOtherThan(kind: number): KindLeader | null {
    const k = kind === this.leadingKind ? this.secondKind : this.leadingKind;
    return k < 0 ? null : { position: this.positions[k]!, fit: this.fits[k]!, matched: this.matched[k]! };
  }

  private beats(fit: number, position: number, kind: number): boolean {
    const held = this.fits[kind]!;
    return fit > held || (fit === held && position < this.positions[kind]!);
  }
}
