// mocha's settings (make unit runs every test). `mocha dist/test/x/y.test.js` runs the files named
// alone: a spec set here would be added to them, running the whole suite instead.
const named = process.argv.slice(2).some((arg) => arg.endsWith('.test.js'));
module.exports = { timeout: 60000, recursive: true, ...(named ? {} : { spec: ['dist/test/**/*.test.js'] }) };
