// The `bloom` command as the package ships it (package.json's bin): the
// CommonJS bundle that `npm run build` writes (src/build/cli.mjs). Tests run
// it as a real process.
import { join } from 'node:path';

/** The path of the built `bloom` command. */
export const BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'bloom.cjs');
