// Types of layers.js (plain JavaScript, for eslint.config.js), for the script and the test that read it.
import type { Linter } from 'eslint';

export interface Layer {
  name: string;
  files: string[];
  what: string;
}
export declare const LAYERS: readonly Layer[];
export declare const layerRules: Linter.Config;
export declare const serverReadsTheApp: Linter.Config;
export declare function layersTable(): string;
