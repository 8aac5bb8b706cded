// The order rules (see submission.ts while they are cut along their seams): callers import this folder.
export * from "./submission";
