/** Directory inside the model store holding downloaded object-store sources; hidden from store scans. */
export const SOURCES_DIR_NAME = '.sources';

/** How the directories a source is downloaded into start, inside {@link SOURCES_DIR_NAME}, until renamed into place. */
export const SOURCE_WORK_DIR_PREFIX = '.tmp-';
