// The mapping (see delivery.ts while it is cut along its seams): callers import this folder.
export * from "./delivery";
