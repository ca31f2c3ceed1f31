"""A recipe-scaling tool as a PydanticAI `Tool`, for a cooking assistant.

`scale_recipe` (seeded) lower-cases each ingredient's unit to pick its rounding, but the unit is
documented as optional ("3 eggs" has none): a missing unit raises AttributeError on None;
`scale_recipe_fixed` treats it as a count. A serving count under 1 is rejected, as documented.
"""

from __future__ import annotations

from typing import Optional

from pydantic import BaseModel
from pydantic_ai import Tool


class Ingredient(BaseModel):
    name: str
    amount: float
    unit: Optional[str] = None  # "g", "ml", "tbsp"...; none for a count ("3 eggs")


def _check(servings_from: int, servings_to: int) -> float:
    if servings_from < 1 or servings_to < 1 or servings_from > 1000 or servings_to > 1000:
        raise ValueError("servings must be between 1 and 1000")
    return servings_to / servings_from


def _scale_recipe(ingredients: list[Ingredient], servings_from: int, servings_to: int) -> str:
    """Scale a recipe's ingredients from one number of servings to another.

    Args:
        ingredients: each with a name, an amount and an optional unit ("g", "ml", "tbsp");
            leave the unit out for a count, as in 3 eggs.
        servings_from: the servings the recipe is written for, 1 to 1000.
        servings_to: the servings wanted, 1 to 1000. A count outside 1 to 1000 raises ValueError.
    """
    factor = _check(servings_from, servings_to)
    lines = []
    for item in ingredients:
        unit = item.unit.lower()  # the seeded bug: the unit is optional
        digits = 0 if unit in ("g", "ml") else 1
        lines.append(f"{item.name}: {round(item.amount * factor, digits)} {unit}".rstrip())
    return "\n".join(lines) or "(no ingredients)"


def _scale_recipe_fixed(ingredients: list[Ingredient], servings_from: int, servings_to: int) -> str:
    """Scale a recipe's ingredients from one number of servings to another.

    Args:
        ingredients: each with a name, an amount and an optional unit ("g", "ml", "tbsp");
            leave the unit out for a count, as in 3 eggs.
        servings_from: the servings the recipe is written for, 1 to 1000.
        servings_to: the servings wanted, 1 to 1000. A count outside 1 to 1000 raises ValueError.
    """
    factor = _check(servings_from, servings_to)
    lines = []
    for item in ingredients:
        unit = (item.unit or "").lower()
        digits = 0 if unit in ("g", "ml") else 1
        lines.append(f"{item.name}: {round(item.amount * factor, digits)} {unit}".rstrip())
    return "\n".join(lines) or "(no ingredients)"


scale_recipe = Tool(_scale_recipe, name="scale_recipe")
scale_recipe_fixed = Tool(_scale_recipe_fixed, name="scale_recipe_fixed")
