// E2E tests drive whole flows through HTTP across several processes.
jest.setTimeout(180000);
