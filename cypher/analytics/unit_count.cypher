// How many units the analytics would run over.
RETURN COUNT { (:Unit) } AS units
