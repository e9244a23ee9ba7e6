/**
 * Where a model version in the store comes from: an unpacked directory (with `model.yaml`), a directory
 * holding only `model.onnx` (its manifest made by `loadModelDirectory`), a `.sluice` archive or a
 * TorchServe `.mar`.
 */
export type StoreEntrySource = 'directory' | 'model-file' | 'archive' | 'mar';

/** One model version found in the model store. */
export interface StoreEntry {
  readonly source: StoreEntrySource;
  /** Absolute path of the model directory (holding `model.yaml`) or of the archive file. */
  readonly path: string;
  /**
   * The name directly inside the store this version was found under (a directory name or an
   * archive file name such as `iris.sluice`): what a user passes as `url` to the management API.
   */
  readonly storeName: string;
}

/** File name extension of Sluice model archives. */
export const ARCHIVE_EXTENSION = '.sluice';

/** File name extension of TorchServe model archives, converted when registered. */
export const MAR_FILE_EXTENSION = '.mar';
