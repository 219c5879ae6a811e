// Run with `node --experimental-vm-modules node_modules/jest/bin/jest.js`: Jest loads the .mjs tests as native ES
// modules (opsapi is an ES module package), with no transform.
export default {
  testEnvironment: 'node',
  testMatch: ['**/*.test.mjs'],
  transform: {},
};
