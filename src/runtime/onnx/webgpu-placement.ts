import { SluiceError } from '../../sdk/errors/index.js';

/** Where a session computes: on the thread that loaded it (the event loop), or on a device's session thread. */
export type SessionPlace = 'the event loop' | `the session thread of device ${number}`;

/**
 * Keeps every WebGPU session of the process computing on one thread. ONNX Runtime's WebGPU provider shares
 * one GPU context among a process's sessions, and runs on two threads at once break it (on an H200: "the
 * command encoder is already finished", then a crash of the process). The first WebGPU session decides the
 * place; while any WebGPU session lives, a session elsewhere is refused.
 */
export class WebGpuPlacement {
  private place: SessionPlace | undefined;
  private live = 0;

  /**
   * Records a WebGPU session of `modelPath` computing at `place` and returns the function to call when it
   * is released. Throws `SLUICE_MODEL_LOAD_FAILED` when live WebGPU sessions compute elsewhere.
   */
  claim(place: SessionPlace, modelPath: string): () => void {
    if (this.place !== undefined && this.place !== place && this.live > 0) {
      throw new SluiceError(
        'SLUICE_MODEL_LOAD_FAILED',
        `cannot run ${modelPath} on WebGPU on ${place}: ${this.live} WebGPU session(s) already run on ${this.place}, and ONNX Runtime's WebGPU provider breaks when two threads run at once; give every WebGPU model the same session thread setting (GPU executor option sessionThread) and the same first GPU (manifest device, GPU executor option deviceIds)`,
        { modelPath, place, otherPlace: this.place, otherSessions: this.live },
      );
    }
    this.place = place;
    this.live += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.live -= 1;
    };
  }
}

/** The process's placement of WebGPU sessions. */
export const webGpuPlacement = new WebGpuPlacement();
