export {
  parseLabelSelector,
  newLabelRequirement,
  labelSelectorFromRequirements,
  labelSelectorFromSet,
  everythingLabelSelector,
  nothingLabelSelector,
  type ParsedLabelSelector,
} from './label-selector.js';
export { labelSelectorFromObject } from './label-selector-object.js';
export { LABEL_OPERATORS, type LabelOperator, type LabelRequirement } from './label-requirement.js';
export { isLabelKey, isLabelValue, isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isPortName, maskTrailingDash, TOTAL_ANNOTATION_SIZE_LIMIT, validateAnnotations, validateLabelName, validateLabels } from './label-validation.js';
export {
  parseFieldSelector,
  fieldSelectorFromSet,
  everythingFieldSelector,
  type ParsedFieldSelector,
  type FieldRequirement,
  type FieldOperator,
} from './field-selector.js';
export { escapeFieldSelectorValue, unescapeFieldSelectorValue } from './field-escape.js';
export { validateLabelSelector, type LabelSelectorOptions } from './label-selector-validation.js';
