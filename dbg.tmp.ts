import { defaultReferenceData, KYIV_CITY_REF } from "./test/warehouse-sim/reference-data";
const locker = defaultReferenceData().branchesInCity(KYIV_CITY_REF).find((each) => each.CategoryOfWarehouse === "Postomat")!;
console.log(locker.Number, locker.Description);
