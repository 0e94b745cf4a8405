# Renders a glTF file headless in Blender (scripts/render-gltf-picture.mjs runs it):
#   blender -b --factory-startup --python scripts/blender-render.py -- IN.glb OUT.png [WIDTH HEIGHT SAMPLES]
# Blender's own glTF importer, the rest pose (the imported actions taken off: the nodes' rest TRS
# is our base pose), a camera framing the meshes' bounds from the front, slightly right and above
# (Blender is Z-up after import, like our models), a sun and a grey world; Cycles on the CPU with
# few samples and denoising off (Debian's build has no denoiser).
import math
import sys

import bpy
import numpy
from mathutils import Vector

# Debian's Blender 3.4 importer still uses numpy's removed `bool` alias.
if not hasattr(numpy, "bool"):
    numpy.bool = bool

args = sys.argv[sys.argv.index("--") + 1:]
source, target = args[0], args[1]
width, height, samples = (int(a) for a in (args[2:5] if len(args) >= 5 else (480, 360, 24)))

bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=source)
scene = bpy.context.scene
for o in scene.objects:
    o.animation_data_clear()
    if o.type == "MESH" and o.data.shape_keys:
        o.data.shape_keys.animation_data_clear()
    if o.type == "ARMATURE":
        for bone in o.pose.bones:
            bone.matrix_basis.identity()
bpy.context.view_layer.update()

# The meshes' bounds in world space (as posed), for the camera.
depsgraph = bpy.context.evaluated_depsgraph_get()
low = Vector((math.inf,) * 3)
high = Vector((-math.inf,) * 3)
for o in scene.objects:
    if o.type != "MESH":
        continue
    evaluated = o.evaluated_get(depsgraph)
    for v in evaluated.to_mesh().vertices:
        p = evaluated.matrix_world @ v.co
        low = Vector(map(min, low, p))
        high = Vector(map(max, high, p))
    evaluated.to_mesh_clear()
centre = (low + high) / 2
radius = max((high - low).length / 2, 1e-3)

camera_data = bpy.data.cameras.new("camera")
camera_data.lens = 50
camera = bpy.data.objects.new("camera", camera_data)
scene.collection.objects.link(camera)
direction = Vector((0.55, -1.0, 0.45)).normalized()  # from the front (-Y), right and above
fov = 2 * math.atan(camera_data.sensor_width / (2 * camera_data.lens)) * min(1, height / width)
camera.location = centre + direction * (radius / math.sin(fov / 2)) * 1.3
camera.rotation_euler = (centre - camera.location).to_track_quat("-Z", "Y").to_euler()
scene.camera = camera

sun_data = bpy.data.lights.new("sun", "SUN")
sun_data.energy = 3.0
sun = bpy.data.objects.new("sun", sun_data)
sun.rotation_euler = (math.radians(50), math.radians(10), math.radians(30))
scene.collection.objects.link(sun)
world = bpy.data.worlds.new("world")
world.use_nodes = True
world.node_tree.nodes["Background"].inputs[0].default_value = (0.18, 0.18, 0.2, 1)
world.node_tree.nodes["Background"].inputs[1].default_value = 0.8
scene.world = world

scene.render.engine = "CYCLES"
scene.cycles.device = "CPU"
scene.cycles.samples = samples
scene.cycles.use_denoising = False
scene.render.resolution_x = width
scene.render.resolution_y = height
scene.render.resolution_percentage = 100
scene.render.film_transparent = False
scene.render.image_settings.file_format = "PNG"
scene.render.filepath = target
bpy.ops.render.render(write_still=True)
print(f"RENDERED {target} {width}x{height} {samples} samples")
