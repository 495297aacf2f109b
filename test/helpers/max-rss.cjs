// Preloaded with `node -r` into a child under test: on exit it prints the
// process's peak resident set size, `maxRSS=<KiB>`, as the last line of
// stderr (process.resourceUsage().maxRSS, the kernel's ru_maxrss).
const { writeSync } = require('node:fs');
process.on('exit', () => writeSync(2, `\nmaxRSS=${process.resourceUsage().maxRSS}\n`));
